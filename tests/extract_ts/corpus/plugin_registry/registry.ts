// A plugin registry: optional features register an implementation under a name
// (`loadPlugin("Patches", {...})`, stored with a key we cannot read in the registry), and the core
// looks it up by name where it needs it (`getPlugin("Patches").applyPatches_(...)`): the lookup is
// any value stored in the registry, so the call reaches the registered implementation.
const plugins: Record<string, any> = {};

export function loadPlugin(name: string, implementation: any): void {
  if (!plugins[name]) plugins[name] = implementation;
}

export function getPlugin(name: string): any {
  const plugin = plugins[name];
  if (!plugin) {
    throw new Error(`plugin ${name} is not loaded`);
  }
  return plugin;
}
