// The bookmarklet's page: the button is for dragging. Clicked here it would run on ludolog itself, which our
// pages' Content-Security-Policy refuses anyway; say what to do instead.

const link = document.getElementById("bookmarklet");
const said = document.getElementById("bookmarklet-said");

link.addEventListener("click", (event) => {
  event.preventDefault();
  said.textContent = "Drag this button to your bookmarks bar, then click the bookmark on a Board Game Arena page.";
});
document.body.dataset.ready = "true";
