// The moves of the game, one turn a line, scrolled to the newest turn.

function render({ model, el }) {
  const box = document.createElement("div");
  box.className = "gl-log";
  box.setAttribute("role", "log");
  el.appendChild(box);

  function draw() {
    box.style.maxWidth = model.get("max_width");
    box.textContent = model.get("value") || "no moves yet";
    box.scrollTop = box.scrollHeight;
  }

  model.on("change:value", draw);
  model.on("change:max_width", draw);
  draw();
  return () => {
    model.off("change:value", draw);
    model.off("change:max_width", draw);
  };
}

export default { render };
