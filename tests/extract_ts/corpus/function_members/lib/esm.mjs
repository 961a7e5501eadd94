export default function create() {}
create.extend = function extend() {};

export const tool = () => {};
tool.run = function () {};
