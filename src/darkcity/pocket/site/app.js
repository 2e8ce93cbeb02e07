// The companion's page in the pocket app: its shell (shell.js) speaks the companion's
// catalog.
import { t } from "./static/table/i18n.js";
import { offerUpdates } from "./shell.js";

offerUpdates(t);
