#!/usr/bin/env -S hookctl fire --payload -
export default function (event: unknown) {
  return { reason: "#!" };
}
