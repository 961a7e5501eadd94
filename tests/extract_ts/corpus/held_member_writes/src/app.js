// Members written from outside the object that holds them: a nested object literal's key set
// later, arrays held by an object literal (or a class's static) pushed onto, an instance's field
// assigned after `new`.
export const app = {
  handlers: {},
  plugins: [],
  use(plugin) {
    this.plugins.push(plugin);
  },
  start() {
    for (const plugin of this.plugins) plugin.install();
    app.handlers.ready();
  },
};

const hooks = { before: [] };

export function onBefore(fn) {
  hooks.before.push(fn);
}

export function runBefore() {
  hooks.before.forEach((fn) => fn());
}

export class Registry {
  static register(factory) {
    Registry.factories.push(factory);
  }
  static createAll() {
    return Registry.factories.map((make) => make());
  }
}
Registry.factories = [];

export class Button {
  click() {
    this.onClick();
  }
}

function ready() {}

function save() {}

app.handlers.ready = ready;

export function makeButton() {
  const button = new Button();
  button.onClick = save;
  button.click();
  return button;
}
