/** Text as HTML: every character that could open markup or end an attribute becomes an entity. */
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
