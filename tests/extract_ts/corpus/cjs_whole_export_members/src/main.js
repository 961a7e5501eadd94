const make = require('./factory');
const { helper } = require('./factory');
make();
helper();
require('./factory').helper();
