import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

type Handler = (request: { params?: { name?: unknown } }, extra: unknown) => Promise<unknown>;

/**
 * Two places where the SDK's McpServer says more than the specification lets it:
 * - a call of a tool that does not exist answers a JSON-RPC error (-32602, "Unknown tool"), as the
 *   specification's Tools page shows, where the SDK answers an `isError` result as if the tool had run;
 * - the server never sends `notifications/tools/list_changed` (its tools are fixed), so it does not advertise
 *   `tools.listChanged`, which the SDK adds as soon as a tool is registered.
 * Both reach into the SDK's own objects (the handler map is private); test/mcp.test.ts checks the replies.
 */
export function followToolsSpecification(server: McpServer, toolNames: readonly string[]): void {
  const known = new Set(toolNames);
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, Handler> })._requestHandlers;
  const call = handlers.get('tools/call');
  if (!call) throw new Error('The MCP SDK no longer keeps its tools/call handler where expected: see api/mcp/unknown-tool.ts.');
  handlers.set('tools/call', (request, extra) => {
    const name = request.params?.name;
    if (typeof name !== 'string' || !known.has(name)) {
      // Not an McpError: its message already starts "MCP error -32602: ", and the client's McpError adds that again.
      throw Object.assign(new Error(`Unknown tool: ${String(name)}. The tools are ${[...known].join(', ')}.`), {
        code: ErrorCode.InvalidParams,
      });
    }
    return call(request, extra);
  });
  const tools = (server.server as unknown as { getCapabilities: () => { tools?: { listChanged?: boolean } } }).getCapabilities().tools;
  if (tools) delete tools.listChanged;
}
