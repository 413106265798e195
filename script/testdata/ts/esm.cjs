export default function (event) {}
