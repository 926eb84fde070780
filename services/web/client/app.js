// The app's only script (bundled by esbuild, served from /app/assets/app.js; no inline script).
// Pages work without it: it only adds the copy button next to a new token's value.
document.querySelectorAll('button[data-copy]').forEach((button) => {
  const field = document.getElementById(button.getAttribute('data-copy'));
  if (!field || !navigator.clipboard) return;
  button.hidden = false;
  button.addEventListener('click', () => {
    navigator.clipboard.writeText(field.value).then(() => {
      button.textContent = button.getAttribute('data-copied');
    });
  });
});
