/** Calls of one method in a row, as the gateway hands them to insight: a batch of 50 eth_call is one run of 50. */
export interface MethodRun {
  method: string;
  calls: number;
}
