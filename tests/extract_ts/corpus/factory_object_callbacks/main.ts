import { createEmitter, notifyManager } from './notify'

function refresh(): number {
  return 1
}

function flushAll(): void {}

function finished(): void {}

function onValue(n: number): void {}

export function invalidate(): number {
  return notifyManager.batch(() => refresh())
}

export function done(): void {
  notifyManager.later(flushAll)
  notifyManager.flush(finished)
}

export function listen(): void {
  const emitter = createEmitter()
  emitter.emit(onValue)
}
