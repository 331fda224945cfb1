import { startRedisCluster } from './harness/redis-cluster';

/**
 * `make redis-cluster`: a throwaway three-node Redis Cluster on free loopback ports (no persistence), for
 * running api and worker against a cluster by hand. Prints the REDIS_CLUSTER_NODES value; Ctrl-C removes it.
 */
const cluster = await startRedisCluster(3);
console.log(
  `Redis Cluster ready. Use it with:\n  REDIS_CLUSTER_NODES=${cluster.nodes}\nCtrl-C stops the nodes and deletes their directories.`,
);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await cluster.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
