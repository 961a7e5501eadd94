import { Add, Calculator, Multiply } from "./calc";

const calc = new Calculator(new Add());
calc.run(1, 2);
calc.setStrategy(new Multiply());
calc.run(3, 4);
