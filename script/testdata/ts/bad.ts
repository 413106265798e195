export default function (event: any) {
  const x: number = ;
}
