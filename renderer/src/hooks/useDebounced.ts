// Debounced value for inputs that trigger queries (search boxes, limit previews): one request per pause in typing.
import { useEffect, useState } from "react";

/** `value`, updated only once it has stayed the same for `ms` milliseconds. */
export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}
