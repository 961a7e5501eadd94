export default function greet(name: string) {
  return "hi " + name;
}
