// The rpc module's face: what the rest of the server may use of it. Everything else in the folder is its own.
export { FaucetRefusal } from './faucet.ts';
export { rpcRoutes } from './rpc.routes.ts';
export { RpcGateway } from './rpc.service.ts';
export { isGatewayRequest, RpcHttp } from './rpc-http.ts';
export { isGatewayUpgrade, RpcWebSockets } from './rpc-ws.ts';
