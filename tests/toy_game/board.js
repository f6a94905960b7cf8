// Toy Duel's drawer for the web page: the table and the seat's hand.
(function () {
  function draw(view, catalog) {
    const root = document.createElement("div");
    root.className = "toy-duel";
    const value = (card) => catalog.values[card];
    const table = document.createElement("p");
    table.textContent =
      (view.led >= 0 ? "led: " + value(view.led) : "no card led") +
      "; stock " + view.stock_size + "; points " + view.points.join("-");
    root.appendChild(table);
    const hand = document.createElement("p");
    hand.textContent = "hand: " + view.hand.map(value).join(" ") +
      "; opponent holds " + view.opponent_hand_size;
    root.appendChild(hand);
    return root;
  }
  cruiselib.registerDrawer("toy_duel", draw);
})();
