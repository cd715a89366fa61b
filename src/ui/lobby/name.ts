// The player's name, remembered on the device: typed once (new game, joining, settings), offered
// again on every form, also later in the same visit (the page's device record is read when the
// page opens, so the forms ask the memory, not that snapshot).
import { useEffect, useRef, useState } from 'react';
import type { NameMemory } from '../game/session';

/** A name field's state, starting from the remembered name (until the player types). */
export function useRememberedName(names: NameMemory, initial?: string): [string, (name: string) => void] {
  const [name, setName] = useState(initial ?? names.initial);
  const typed = useRef(false);
  useEffect(() => {
    if (initial !== undefined && initial !== '') return;
    let live = true;
    void names.load().then((n) => {
      if (live && !typed.current && n !== '') setName(n);
    });
    return () => {
      live = false;
    };
  }, [names, initial]);
  return [
    name,
    (n: string) => {
      typed.current = true;
      setName(n);
    },
  ];
}
