// What the CLI prints from a file's name or content must not drive the user's terminal: escape sequences (ESC [ …,
// OSC 8 links, title changes) and other control characters are shown as \xNN instead of being sent as they are.

// C0 controls except tab and line feed, DEL, and the C1 controls (U+0080–U+009F, which some terminals obey too)
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g; // eslint-disable-line no-control-regex

export function plainText(s: string): string {
  return s.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
