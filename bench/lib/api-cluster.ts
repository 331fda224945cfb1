import cluster from 'node:cluster';

/**
 * Bench only: the built api (the script given as the first argument) in API_CLUSTER_PROCESSES processes sharing
 * one port through node:cluster, whose primary hands each new connection to the next process in turn. It stands
 * for what the design does past one core: more api processes behind a load balancer (no state lives in an api
 * process), without a balancer's own hop. SIGTERM is passed on; the primary exits when its processes have.
 */
const processes = Number(process.env.API_CLUSTER_PROCESSES ?? 2);
cluster.setupPrimary({ exec: process.argv[2]!, execArgv: [] });
for (let i = 0; i < processes; i++) cluster.fork();
let running = processes;
cluster.on('exit', () => {
  if (--running === 0) process.exit(0);
});
process.on('SIGTERM', () => {
  for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
});
