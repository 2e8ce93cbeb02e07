// What the companion's server or the phone's engine said no to: its words and a status,
// thrown by either transport (api.js, transport.js) and shown by the page.
export class Refusal extends Error {
  constructor(message, status) { super(message); this.status = status; }
}
