/** Stops the suite's NATS broker (global-setup). */
export default async function globalTeardown(): Promise<void> {
  await globalThis.mmTestBroker?.stop();
}
