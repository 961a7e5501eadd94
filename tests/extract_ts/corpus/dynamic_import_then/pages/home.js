export function render() {}
export default function mount() {}
