// The processor module's face: what the rest of the server may use of it. Everything else in the folder is its own.
export { refundLocalCharge } from './charge-refunds.ts';
export { LocalCardProcessor, ProcessorError } from './local-processor.ts';
export { processorRoutes } from './processor.routes.ts';
