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

  const changes = ["change:value", "change:max_width"];
  for (const name of changes) model.on(name, draw);
  draw();
  return () => {
    for (const name of changes) model.off(name, draw);
  };
}

export default { render };
