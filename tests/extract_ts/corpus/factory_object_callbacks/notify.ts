// A factory returning its API as an object literal (`as const`), whose members take callbacks:
// the callbacks callers pass reach the members that call them, wherever the callers are.
type Callback = () => void

export function createNotifyManager() {
  let transactions = 0
  const queue: Callback[] = []
  return {
    batch: <T>(callback: () => T): T => {
      transactions++
      try {
        return callback()
      } finally {
        transactions--
      }
    },
    later: function (callback: Callback): void {
      queue.push(callback)
      callback()
    },
    flush(onDone: Callback): void {
      onDone()
    },
  } as const
}

export const notifyManager = createNotifyManager()

export function createEmitter() {
  return {
    emit: (listener: (n: number) => void) => listener(1),
  } satisfies object
}
