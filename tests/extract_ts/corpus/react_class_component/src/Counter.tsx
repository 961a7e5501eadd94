import React, { Component } from "react";
import { format } from "./format";
type Props = { onChange: (n: number) => void; label: string };
export class Counter extends Component<Props> {
  state = { n: 0 };
  componentDidMount() {
    super.componentDidMount?.();
    this.props.onChange(0);
  }
  increment = () => {
    this.setState({ n: this.state.n + 1 });
    this.props.onChange(this.state.n);
  };
  render() {
    return <button onClick={this.increment}>{format(this.props.label)}</button>;
  }
}
