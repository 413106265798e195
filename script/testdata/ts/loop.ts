export default function (event: any): void {
  let n: number = 0;
  while (true) {}
}
