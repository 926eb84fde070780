// The app's only script (bundled by esbuild, served from /app/assets/app.js; no inline script).
// Pages work without it: it adds the copy button, the live status of a meeting in progress, and
// the player's seek-to-turn and current-turn highlight.
import { followStatus, followPlayer, followList } from './meeting';
import { followUpload } from './upload';

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

followStatus(document);
followPlayer(document);
followUpload(document);
followList(document);
