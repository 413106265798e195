const wait = (ms: number): Promise<void> => Promise.resolve();

export default async function (event: { n: number }) {
  await wait(1);
  throw new TypeError(`bad n: ${event.n}`);
}
