// The teaching board in the page: draws the SVG that Python sends and reports clicks.
// A click on a point sends {kind: "click", point}; dragging a checker from one point
// to another sends {kind: "move", source, target}. Points are numbered as the board
// shows them from the bottom (25 the bar, 0 the tray). Python answers with a new
// picture and the points to mark: the checkers that may move (movable), the chosen
// one (selected) and where it may go (targets). Every rule stays in Python.

function render({ model, el }) {
  const box = document.createElement("div");
  box.className = "gl-board";
  el.appendChild(box);
  let pressed = null;

  function mark() {
    const movable = new Set(model.get("movable"));
    const targets = new Set(model.get("targets"));
    const selected = model.get("selected");
    for (const area of box.querySelectorAll(".hit-area")) {
      const point = Number(area.dataset.point);
      area.classList.toggle("gl-movable", movable.has(point));
      area.classList.toggle("gl-target", targets.has(point));
      area.classList.toggle("gl-selected", point === selected);
    }
  }

  function draw() {
    box.style.maxWidth = model.get("max_width");
    box.innerHTML = model.get("value");
    const svg = box.querySelector("svg");
    if (svg) {
      svg.removeAttribute("width");
      svg.removeAttribute("height");
    }
    mark();
  }

  function pointAt(event) {
    const found = document.elementFromPoint(event.clientX, event.clientY);
    const area = found && found.closest ? found.closest(".hit-area") : null;
    return area && box.contains(area) ? Number(area.dataset.point) : null;
  }

  function down(event) {
    const point = pointAt(event);
    if (point === null) return;
    pressed = point;
    event.preventDefault();
  }

  function up(event) {
    if (pressed === null) return;
    const source = pressed;
    pressed = null;
    const target = pointAt(event);
    if (target === null) return;
    if (target === source) {
      model.send({ kind: "click", point: target });
    } else {
      model.send({ kind: "move", source, target });
    }
  }

  const pointer = { pointerdown: down, pointerup: up };
  const changes = {
    "change:value": draw,
    "change:max_width": draw,
    "change:movable": mark,
    "change:targets": mark,
    "change:selected": mark,
  };
  for (const [name, handler] of Object.entries(pointer)) box.addEventListener(name, handler);
  for (const [name, handler] of Object.entries(changes)) model.on(name, handler);
  draw();
  return () => {
    for (const [name, handler] of Object.entries(pointer)) box.removeEventListener(name, handler);
    for (const [name, handler] of Object.entries(changes)) model.off(name, handler);
  };
}

export default { render };
