import React from "react";
export class Panel extends React.Component {
  render() {
    return (
      <div>
        <Header />
      </div>
    );
  }
}
function Header() {
  return <h1>Title</h1>;
}
