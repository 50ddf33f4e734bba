// Generated from GET /openapi.json by `bun src/console/api/generate.ts` (openapi-typescript). Do not edit.

export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness and database check
         * @description For load balancers and supervisors: no API key needed, and no organization is counted.
         */
        get: operations["getHealthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dossiers/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export dossiers as CSV
         * @description Needs `dossiers:read`. GET /dossiers' filters (without paging), every matching dossier newest first, one row each, the columns in the order of the Dossier schema. A cell whose text begins with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'` (spreadsheet formula injection); an import of the file takes the prefix off again.
         *
         *     Required scopes: `dossiers:read`.
         */
        get: operations["exportDossiers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/contacts/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export contacts as CSV
         * @description Needs `contacts:read`. GET /contacts' filters (without paging), every matching contact newest first, one row each, the columns in the order of the Contact schema; `kind` joined by `;`. A cell whose text begins with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'` (spreadsheet formula injection); an import of the file takes the prefix off again.
         *
         *     Required scopes: `contacts:read`.
         */
        get: operations["exportContacts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dossiers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List dossiers
         * @description Newest first (created_at desc, then id desc). Without `status`, archived dossiers are left out. `overdue=true`: active dossiers whose stage_due_at has passed; `overdue=false`: all others. `q`: case-insensitive substring over name, email and company. `metadata[key]=value`: only dossiers whose metadata holds that value under that key (several AND together).
         *
         *     Required scopes: `dossiers:read`.
         */
        get: operations["listDossiers"];
        put?: never;
        /**
         * Create a dossier
         * @description Into the first stage of `flow_id` (default: the organization's default flow for the type; its type must match). Linked as primary to `contact_id`, else to the contact with the same email, else to a new contact. As multipart/form-data: the same fields as form fields (numbers as decimal strings, `metadata` as JSON text, empty = absent) plus an optional PDF file `cv` (at most 10 MB; body at most 11 MB); the dossier and its CV are created atomically. A flow_id or contact_id that is not the organization's: 404 naming the field. A JSON body over 1 MB: 413 payload_too_large; a CV over 10 MB: 413 file_too_large. Emits dossier.created.
         *
         *     Required scopes: `dossiers:write`.
         */
        post: operations["createDossier"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dossiers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a dossier
         * @description Required scopes: `dossiers:read`.
         */
        get: operations["getDossier"];
        put?: never;
        post?: never;
        /**
         * Archive a dossier
         * @description Soft delete: status becomes archived, the data is kept. Emits dossier.deleted (nothing when already archived).
         *
         *     Required scopes: `dossiers:write`.
         */
        delete: operations["archiveDossier"];
        options?: never;
        head?: never;
        /**
         * Update a dossier
         * @description Any subset of the fields; `null` clears a nullable field. `current_stage_id` must be a stage of the dossier's flow; a new stage emits dossier.stage_changed, then dossier.updated. Any change emits dossier.updated with `previous_attributes`. A PATCH that changes nothing answers 200 and emits nothing.
         *
         *     Required scopes: `dossiers:write`.
         */
        patch: operations["updateDossier"];
        trace?: never;
    };
    "/api/v1/dossiers/{id}/cv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download the CV
         * @description The PDF itself, as an attachment named "cv.pdf"; 404 when the dossier has no CV.
         *
         *     Required scopes: `dossiers:read`.
         */
        get: operations["downloadCv"];
        put?: never;
        /**
         * Attach a CV
         * @description A PDF of at most 10 MB, as multipart/form-data (the file field `cv` alone) or as the raw application/pdf body. Replaces any earlier CV. Answers the whole updated dossier. Emits dossier.updated.
         *
         *     Required scopes: `dossiers:write`.
         */
        post: operations["attachCv"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dossiers/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What happened to a dossier
         * @description Every change, oldest first, with who made it and each field's [old, new]; one item per kind of change per request. Not paginated: a dossier's history grows only with what is done to it, and meta.stages (the time spent in each stage, by entered_at) needs it whole.
         *
         *     Required scopes: `dossiers:read`.
         */
        get: operations["getDossierHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dossiers/{id}/notes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a dossier's notes
         * @description Oldest first.
         *
         *     Required scopes: `notes:read`.
         */
        get: operations["listNotes"];
        put?: never;
        /**
         * Add a note to a dossier
         * @description `content` must not be empty after trimming; `is_internal` defaults to true. Emits note.created.
         *
         *     Required scopes: `notes:write`.
         */
        post: operations["createNote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dossiers/{id}/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a dossier's contacts
         * @description The primary first, then by link time, oldest first. Not paginated: meta is {total: n, page: 1, per_page: n}.
         *
         *     Required scopes: `contacts:read`.
         */
        get: operations["listDossierContacts"];
        put?: never;
        /**
         * Link a contact to a dossier
         * @description 201 for a new link, 200 when the contact was already linked (its role and is_primary are updated; without is_primary the current value stays). is_primary true demotes the previous primary; the dossier's contact_id follows the primary. A contact_id that is not the organization's: 404 naming the field. No event.
         *
         *     Required scopes: `contacts:write`, `dossiers:write`.
         */
        post: operations["linkContact"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dossiers/{id}/contacts/{contact_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Unlink a contact from a dossier
         * @description The contact is kept. A contact that is not linked: 404. When it was the primary, the dossier's contact_id becomes null. No event.
         *
         *     Required scopes: `contacts:write`, `dossiers:write`.
         */
        delete: operations["unlinkContact"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List contacts
         * @description Newest first (created_at, then id, descending). `kind` may repeat: contacts holding any of the kinds. `search`: case-insensitive substring of full_name, email, company or role. `metadata[key]=value`: only contacts whose metadata holds that value under that key (several AND together).
         *
         *     Required scopes: `contacts:read`.
         */
        get: operations["listContacts"];
        put?: never;
        /**
         * Create a contact
         * @description An email already used by a contact of the organization (case-insensitive) answers 409 duplicate_contact.
         *
         *     Required scopes: `contacts:write`.
         */
        post: operations["createContact"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/contacts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a contact
         * @description Required scopes: `contacts:read`.
         */
        get: operations["getContact"];
        put?: never;
        post?: never;
        /**
         * Delete a contact
         * @description Hard delete. Its links are removed; the dossiers stay, and one whose primary it was gets contact_id null. No event.
         *
         *     Required scopes: `contacts:write`.
         */
        delete: operations["deleteContact"];
        options?: never;
        head?: never;
        /**
         * Update a contact
         * @description Only the keys sent change; `kind` and `notes` replace. `null` clears a field other than full_name and kind. A PATCH that changes nothing keeps updated_at.
         *
         *     Required scopes: `contacts:write`.
         */
        patch: operations["updateContact"];
        trace?: never;
    };
    "/api/v1/flows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List flows with their stages
         * @description Sorted by name; each flow's stages by position.
         *
         *     Required scopes: `flows:read`.
         */
        get: operations["listFlows"];
        put?: never;
        /**
         * Create a flow with its stages
         * @description Stages take their position from their place in the array; `win_probability` defaults to 0, `color` to #9E9E9E. With `is_default: true` the flag moves from the type's current default flow.
         *
         *     Required scopes: `flows:write`.
         */
        post: operations["createFlow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/flows/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Rename a flow or make it the default
         * @description `is_default: true` moves the flag from the type's current default flow. Each type keeps a default: `is_default: false` on the default flow is 400 invalid_body (make another flow the default instead).
         *
         *     Required scopes: `flows:write`.
         */
        patch: operations["patchFlow"];
        trace?: never;
    };
    "/api/v1/flows/{id}/stages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a flow's stages
         * @description Not paginated: meta is {total: n, page: 1, per_page: n}.
         *
         *     Required scopes: `flows:read`.
         */
        get: operations["listStages"];
        put?: never;
        /**
         * Add a stage to a flow
         * @description Without `position` the stage goes last; with one (1 to n + 1), the stages from there on move one down, so positions stay 1..n.
         *
         *     Required scopes: `flows:write`.
         */
        post: operations["createStage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/flows/{id}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A flow's pipeline figures
         * @description Per stage: active and overdue (now), entered and left in the period, the median days of the stays that left, and the share that went on to a later stage; for the flow: won, lost and the win rate in the period; for sales flows the open pipeline value and its value weighted by win_probability, per currency. Each figure is defined in docs/figures.md. `from` after `to`, or a value that is not ISO 8601: 400.
         *
         *     Required scopes: `flows:read`, `dossiers:read`.
         */
        get: operations["getFlowStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/stages/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a stage
         * @description A flow keeps at least one stage (409 last_stage, checked first); a stage that any dossier is in, archived ones too, cannot be deleted (409 stage_not_empty). The stages after it close up.
         *
         *     Required scopes: `flows:write`.
         */
        delete: operations["deleteStage"];
        options?: never;
        head?: never;
        /**
         * Edit or move a stage
         * @description A new `position` (1 to n) moves the stage: the stages between its old and new place shift by one, so positions stay 1..n. A new `deadline_days` applies to dossiers that enter the stage from then on.
         *
         *     Required scopes: `flows:write`.
         */
        patch: operations["patchStage"];
        trace?: never;
    };
    "/api/v1/flows/{id}/intake": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The flow's intake address
         * @description Mail sent to this address becomes a dossier of the flow (docs/email-intake.md). Every flow has one from its creation; the same until rotated.
         *
         *     Required scopes: `flows:write`.
         */
        get: operations["getFlowIntake"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/flows/{id}/intake/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Give the flow a new intake address
         * @description The old address stops working at once: mail to it is refused (550 5.1.1 over SMTP, 404 over HTTP).
         *
         *     Required scopes: `flows:write`.
         */
        post: operations["rotateFlowIntake"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the events feed
         * @description The organization's events as their webhook bodies, oldest first (commit order), whether or not a webhook endpoint is set. Read with `after=meta.next_after` until `has_more` is false: nothing is missed and nothing repeated, even while events are being written. Events are kept 30 days (DOSSIER_EVENT_RETENTION); an `after` that is unknown, another organization's or older than that answers 410 cursor_expired: start again without `after`.
         *
         *     Required scopes: `events:read`.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one event
         * @description An event of the organization within the retention, as its webhook body.
         *
         *     Required scopes: `events:read`.
         */
        get: operations["getEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the organization's API keys
         * @description Oldest first, revoked ones too; the key itself is never shown again, only its prefix. Not paginated: meta is {total: n, page: 1, per_page: n}.
         *
         *     Required scopes: `keys:manage`.
         */
        get: operations["listKeys"];
        put?: never;
        /**
         * Create an API key
         * @description The key is in this answer only: store it now (only its SHA-256 hash is kept). A key cannot grant a scope its creator lacks (403 forbidden); an unknown scope is 400 invalid_body.
         *
         *     Required scopes: `keys:manage`.
         */
        post: operations["createKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key
         * @description The key answers 401 from the next request on. Revoking a revoked key changes nothing.
         *
         *     Required scopes: `keys:manage`.
         */
        delete: operations["revokeKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook-endpoint": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Show the webhook endpoint
         * @description The URL events are sent to and whether it is enabled (a 410 Gone answer disables it); never the secret. 404 not_found when none is set.
         *
         *     Required scopes: `webhooks:manage`.
         */
        get: operations["getWebhookEndpoint"];
        /**
         * Set the webhook endpoint
         * @description Sets or replaces the endpoint, enables it and gives it a new secret (no overlap with the old one), shown in this answer only. The URL must be http or https and must not resolve to a link-local address or another cloud metadata address (fd00:ec2::254, 100.100.100.200) (nor, when the server runs with DOSSIER_WEBHOOK_ALLOW_PRIVATE=0, to a loopback or private one): each attempt checks again.
         *
         *     Required scopes: `webhooks:manage`.
         */
        put: operations["setWebhookEndpoint"];
        post?: never;
        /**
         * Remove the webhook endpoint
         * @description No more deliveries: pending ones become skipped, and events from now on are skipped until an endpoint is set.
         *
         *     Required scopes: `webhooks:manage`.
         */
        delete: operations["removeWebhookEndpoint"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook-endpoint/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the webhook secret
         * @description A new secret, shown in this answer only. For 24 h deliveries carry a second signature made with the secret it replaced. 404 not_found when no endpoint is set.
         *
         *     Required scopes: `webhooks:manage`.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook-deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook deliveries
         * @description One delivery per event, newest event first.
         *
         *     Required scopes: `webhooks:manage`.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook-deliveries/{event_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Show a webhook delivery and its attempts
         * @description Required scopes: `webhooks:manage`.
         */
        get: operations["getWebhookDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook-deliveries/{event_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a failed webhook delivery
         * @description Queues a failed delivery again, due now, with the retry schedule from its start; its attempt log is kept. Only a failed delivery (else 409 delivery_not_failed), and only while an endpoint is set and enabled (else 404 not_found).
         *
         *     Required scopes: `webhooks:manage`.
         */
        post: operations["retryWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List imports
         * @description Newest first. The imports of contacts need `contacts:read`, those of dossiers `dossiers:read`: the list shows those the caller may read.
         *
         *     Required scopes: none.
         */
        get: operations["listImports"];
        put?: never;
        /**
         * Import a CSV file
         * @description Needs the resource's write scope: `contacts:write` for contacts; `dossiers:write` and `contacts:write` for dossiers (a row may create its contact). The file is checked whole before anything is queued: over 50 MB or 200,000 rows 413; empty, binary, without a header row, with mixed delimiters, or a `mapping` naming an unknown field or column: 400 naming it. Then the import runs in the background in batches of at most 500 rows, each validated as the API validates one create or update: a bad row is refused with its reason, the others go in. `mode`: create (default), update or upsert, matching rows on `match_on` (email for contacts by default, or id). `dry_run=true` validates every row and writes none. `emit_events=false`: the rows record no event. Follow it with GET /imports/{id}.
         *
         *     Required scopes: none.
         */
        post: operations["createImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/imports/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve an import
         * @description Its status, its counts so far and its first 1,000 errors by row. Needs `contacts:read` or `dossiers:read`, as its resource.
         *
         *     Required scopes: none.
         */
        get: operations["getImport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/imports/{id}/revert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revert an import
         * @description Deletes the contacts and archives the dossiers the import created, and puts back the fields it updated, except where a later change touched the record (those rows are skipped and counted in `revert`); then the import is `reverted`. Only a succeeded import that is not a dry run: else 409 import_not_revertable. Needs `contacts:write` for contacts; `dossiers:write` for dossiers. Emits the events of the changes (dossier.deleted, dossier.updated).
         *
         *     Required scopes: none.
         */
        post: operations["revertImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the organization's members
         * @description Disabled members too, with disabled_at set. Not paginated: meta is {total: n, page: 1, per_page: n}. Any signed-in member may list; a key needs `members:manage`.
         *
         *     Required scopes: none.
         */
        get: operations["listMembers"];
        put?: never;
        /**
         * Add a member
         * @description The answer carries the member's setup_url, shown once (only its hash is kept). Giving a role or a setup link needs, besides `members:manage`, every scope of the member's current and new role; only an owner (not a key) makes, demotes, removes an owner or gives one a setup link: else 403 forbidden.
         *
         *     Required scopes: `members:manage`.
         */
        post: operations["createMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/members/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Disable a member
         * @description Its sessions end at once and its setup links stop working; the record stays, so that assigned_to and history keep resolving. Giving a role or a setup link needs, besides `members:manage`, every scope of the member's current and new role; only an owner (not a key) makes, demotes, removes an owner or gives one a setup link: else 403 forbidden. The organization keeps an owner (409 last_owner).
         *
         *     Required scopes: `members:manage`.
         */
        delete: operations["disableMember"];
        options?: never;
        head?: never;
        /**
         * Rename a member or change its role
         * @description A new role takes effect on the member's next request. Giving a role or a setup link needs, besides `members:manage`, every scope of the member's current and new role; only an owner (not a key) makes, demotes, removes an owner or gives one a setup link: else 403 forbidden. The organization keeps an owner (409 last_owner).
         *
         *     Required scopes: `members:manage`.
         */
        patch: operations["updateMember"];
        trace?: never;
    };
    "/api/v1/members/{id}/setup-link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Give a member a new setup link
         * @description For a forgotten password: the new link voids the member's older ones. Giving a role or a setup link needs, besides `members:manage`, every scope of the member's current and new role; only an owner (not a key) makes, demotes, removes an owner or gives one a setup link: else 403 forbidden.
         *
         *     Required scopes: `members:manage`.
         */
        post: operations["createSetupLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The signed-in member
         * @description With the session cookie only: an API key gets 401.
         *
         *     Required scopes: none.
         */
        get: operations["getSession"];
        put?: never;
        /**
         * Sign in
         * @description Wrong email or password: 401 invalid_credentials, alike for an unknown email. After 5 failures for one email from one address, or 30 from one address, in 15 minutes: 429 with Retry-After, the right password too, until the window frees.
         *
         *     No API key nor session: this is the way in.
         */
        post: operations["signIn"];
        /**
         * Sign out
         * @description With the session cookie (and X-CSRF-Token) only: an API key gets 401. The cookie is cleared.
         *
         *     Required scopes: none.
         */
        delete: operations["signOut"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List tasks
         * @description Sorted by due_at ascending (tasks without a due date last), then created_at, then id. `assigned_to=me` is the signed-in member (with an API key: 400). `dossier_id` may repeat (up to 100): the tasks of any of these dossiers. `overdue=true`: open tasks whose due_at has passed.
         *
         *     Required scopes: `tasks:read`.
         */
        get: operations["listTasks"];
        put?: never;
        /**
         * Create a task
         * @description `dossier_id`, `contact_id` and `assigned_to` (a member) must be of the organization, else 400 invalid_body naming the field. A task with a dossier adds task_created to the dossier's history. No webhook event.
         *
         *     Required scopes: `tasks:write`.
         */
        post: operations["createTask"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a task
         * @description Required scopes: `tasks:read`.
         */
        get: operations["getTask"];
        put?: never;
        post?: never;
        /**
         * Delete a task
         * @description Required scopes: `tasks:write`.
         */
        delete: operations["deleteTask"];
        options?: never;
        head?: never;
        /**
         * Update a task
         * @description Only the keys sent change; `null` clears a field other than title and status. `status: done` sets done_at and adds task_done to the dossier's history; a new remind_at sends a new reminder. A PATCH that changes nothing keeps updated_at.
         *
         *     Required scopes: `tasks:write`.
         */
        patch: operations["updateTask"];
        trace?: never;
    };
    "/api/v1/dossiers/{id}/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a dossier's tasks
         * @description Sorted by due_at ascending (tasks without a due date last), then created_at, then id.
         *
         *     Required scopes: `tasks:read`.
         */
        get: operations["listDossierTasks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mail-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The mail log
         * @description The reminders and digests the organization's members were sent, newest first: status, attempts, the server's reply or the last error (C22).
         *
         *     Required scopes: `mail:read`.
         */
        get: operations["listMailLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/session/member": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My settings
         * @description The signed-in member's time zone and morning digest (C22). With the session cookie only: an API key gets 401.
         *
         *     Required scopes: none.
         */
        get: operations["getMySettings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change my settings
         * @description `time_zone`: an IANA name (null: the server's DOSSIER_TIME_ZONE, else UTC); the digest comes at 08:00 there. `digest: false` turns the morning digest off. With the session cookie (and X-CSRF-Token) only: an API key gets 401.
         *
         *     Required scopes: none.
         */
        patch: operations["updateMySettings"];
        trace?: never;
    };
    "/api/v1/session/calendar-link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A new private calendar link
         * @description An iCalendar feed (RFC 5545) of the member's open tasks with a due date, for Google Calendar, Apple Calendar or Outlook to subscribe to. The URL is shown once; only a hash of its token is kept; a new link voids the old one. With the session cookie only.
         *
         *     Required scopes: none.
         */
        post: operations["createCalendarLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/intake/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Take in an email as a dossier
         * @description For mail servers that pipe a message to HTTP, and for tests (docs/email-intake.md). The message becomes a dossier of the flow whose intake address has this token, as over SMTP. The same Message-ID on the flow within 7 days makes nothing new: 200 with the first dossier's id.
         *
         *     No API key: the token in the path is the secret.
         */
        post: operations["receiveIntakeMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/session/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Choose a password with a setup link, and sign in
         * @description The link works once, for 7 days. A refused password (400 invalid_body) leaves it usable. The first start's owner link also needs email and name. Every other session of the member ends.
         *
         *     No API key nor session: this is the way in.
         */
        post: operations["setUpPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "dossier.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A dossier was created
         * @description A dossier was created (POST /dossiers); data is the whole new dossier. Sent to the organization's webhook endpoint; delivery is at least once, retried on failure for about 3 days.
         */
        post: operations["onDossierCreated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "dossier.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A dossier changed
         * @description A field of a dossier changed (PATCH /dossiers/{id}, POST /dossiers/{id}/cv); data is the whole dossier after the change. Sent to the organization's webhook endpoint; delivery is at least once, retried on failure for about 3 days.
         */
        post: operations["onDossierUpdated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "dossier.stage_changed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A dossier moved to another stage
         * @description current_stage_id changed (PATCH /dossiers/{id}); sent before the dossier.updated of the same request. Sent to the organization's webhook endpoint; delivery is at least once, retried on failure for about 3 days.
         */
        post: operations["onDossierStageChanged"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "dossier.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A dossier was archived
         * @description A dossier was archived (DELETE /dossiers/{id}); data is the whole archived dossier. Sent to the organization's webhook endpoint; delivery is at least once, retried on failure for about 3 days.
         */
        post: operations["onDossierDeleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "note.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A note was added
         * @description A note was added to a dossier (POST /dossiers/{id}/notes); data is the note. Sent to the organization's webhook endpoint; delivery is at least once, retried on failure for about 3 days.
         */
        post: operations["onNoteCreated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * @example {
         *       "id": "0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d",
         *       "organization_id": "7e9a1c2b-3d4f-4a5b-8c6d-0e1f2a3b4c5d",
         *       "flow_id": "2f6d8a1c-4b3e-4d5f-9a7b-8c9d0e1f2a3b",
         *       "type": "sales",
         *       "name": "Acme renewal 2027",
         *       "email": "jane.doe@acme.example",
         *       "phone": "+33 1 23 45 67 89",
         *       "company": "Acme",
         *       "role": "Head of procurement",
         *       "contact_person": "Jane Doe",
         *       "status": "active",
         *       "current_stage_id": "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
         *       "assigned_to": null,
         *       "deal_size": 12500.5,
         *       "deal_currency": "EUR",
         *       "intake_notes": "Met at the trade fair.",
         *       "cv_url": null,
         *       "contact_id": "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
         *       "stage_entered_at": "2026-11-22T04:21:26.123Z",
         *       "stage_due_at": "2026-11-29T04:21:26.123Z",
         *       "created_at": "2026-11-22T04:21:26.123Z",
         *       "updated_at": "2026-11-22T04:21:26.123Z",
         *       "metadata": {
         *         "erp_id": "ACME-0042"
         *       }
         *     }
         */
        Dossier: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_id: string;
            /** Format: uuid */
            flow_id: string | null;
            type: components["schemas"]["DossierType"];
            /** @description Candidate: the person's name. Sales: deal or account name. Stored trimmed */
            name: string;
            /** @description Primary contact email, as given */
            email: string | null;
            phone: string | null;
            /** @description Candidate: current employer. Sales: target company */
            company: string | null;
            /** @description Candidate: role applied for. Sales: role of the contact */
            role: string | null;
            /** @description Sales only. Named contact at the target company */
            contact_person: string | null;
            status: components["schemas"]["DossierStatus"];
            /**
             * Format: uuid
             * @description The stage the dossier is in
             */
            current_stage_id: string | null;
            /**
             * Format: uuid
             * @description User id of the assigned member
             */
            assigned_to: string | null;
            /** @description Sales only. Expected contract value, in the main currency unit */
            deal_size: number | null;
            /** @description Sales only. ISO 4217 */
            deal_currency: string | null;
            intake_notes: string | null;
            /** @description <org_id>/dossiers/<dossier_id>/cv.pdf; null without a CV */
            cv_url: string | null;
            /**
             * Format: uuid
             * @description The primary linked contact
             */
            contact_id: string | null;
            /**
             * Format: date-time
             * @description When the dossier entered its current stage
             */
            stage_entered_at: string | null;
            /**
             * Format: date-time
             * @description stage_entered_at + the stage's deadline_days days; null without a deadline
             */
            stage_due_at: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            updated_at: string;
            metadata: components["schemas"]["Metadata"];
        };
        /** @enum {string} */
        DossierType: "candidate" | "sales";
        /** @enum {string} */
        DossierStatus: "active" | "won" | "lost" | "archived";
        /**
         * @example {
         *       "id": "0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d",
         *       "status": "archived"
         *     }
         */
        ArchivedDossier: {
            /** Format: uuid */
            id: string;
            /** @constant */
            status: "archived";
        };
        /**
         * @example {
         *       "id": "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
         *       "full_name": "Jane Doe",
         *       "email": "jane.doe@acme.example",
         *       "phone": "+33 1 23 45 67 89",
         *       "linkedin_url": "https://www.linkedin.com/in/janedoe",
         *       "company": "Acme",
         *       "role": "Head of procurement",
         *       "city": "Lyon",
         *       "kind": [
         *         "prospect",
         *         "client"
         *       ],
         *       "notes": null,
         *       "dossier_count": 1,
         *       "pool_added_at": null,
         *       "pool_expires_at": null,
         *       "created_at": "2026-11-22T04:21:26.123Z",
         *       "updated_at": "2026-11-22T04:21:26.123Z",
         *       "metadata": {
         *         "crm_id": "003Dn00000XyZ12"
         *       }
         *     }
         */
        Contact: {
            /** Format: uuid */
            id: string;
            /** @description Stored trimmed */
            full_name: string;
            /** @description Unique per organization, compared case-insensitively; stored as given */
            email: string | null;
            phone: string | null;
            /** @description Public profile URL (http or https) */
            linkedin_url: string | null;
            /** @description Current employer or account */
            company: string | null;
            /** @description Job title or role */
            role: string | null;
            /** @description City of residence */
            city: string | null;
            /** @description No duplicates, order of first appearance; [] by default */
            kind: components["schemas"]["ContactKind"][];
            /** @description Free-form internal notes */
            notes: string | null;
            /** @description Linked dossiers, archived ones included */
            dossier_count: number;
            /**
             * Format: date-time
             * @description Start of the talent-pool window
             */
            pool_added_at: string | null;
            /**
             * Format: date-time
             * @description End of the talent-pool window
             */
            pool_expires_at: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            updated_at: string;
            metadata: components["schemas"]["Metadata"];
        };
        /** @enum {string} */
        ContactKind: "candidate" | "prospect" | "client" | "supplier" | "partner";
        /**
         * @example {
         *       "id": "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
         *       "deleted": true
         *     }
         */
        DeletedContact: {
            /** Format: uuid */
            id: string;
            /** @constant */
            deleted: true;
        };
        /**
         * @example {
         *       "id": "3e4f5a6b-7c8d-4e9f-8a0b-1c2d3e4f5a6b",
         *       "dossier_id": "0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d",
         *       "content": "Called back, wants a proposal by Friday.",
         *       "is_internal": true,
         *       "created_at": "2026-11-22T04:21:26.123Z"
         *     }
         */
        Note: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            dossier_id: string;
            content: string;
            /** @description Internal notes are not shared */
            is_internal: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            created_at: string;
        };
        /**
         * @example {
         *       "id": "2f6d8a1c-4b3e-4d5f-9a7b-8c9d0e1f2a3b",
         *       "organization_id": "7e9a1c2b-3d4f-4a5b-8c6d-0e1f2a3b4c5d",
         *       "name": "Sales",
         *       "type": "sales",
         *       "is_default": true,
         *       "overdue_tasks": true,
         *       "stages": [
         *         {
         *           "id": "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
         *           "flow_id": "2f6d8a1c-4b3e-4d5f-9a7b-8c9d0e1f2a3b",
         *           "name": "Lead",
         *           "position": 1,
         *           "deadline_days": 7,
         *           "win_probability": 10,
         *           "color": "#90CAF9"
         *         }
         *       ]
         *     }
         */
        Flow: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_id: string;
            name: string;
            type: components["schemas"]["FlowType"];
            /** @description The flow used when a dossier of this type is created without flow_id; at most one per type */
            is_default: boolean;
            /** @description Whether a dossier overdue in one of its stages gets a follow-up task, once per stage visit (C22); default true */
            overdue_tasks: boolean;
            /** @description Ordered by position */
            stages: components["schemas"]["Stage"][];
        };
        /** @enum {string} */
        FlowType: "candidate" | "sales";
        /**
         * @example {
         *       "id": "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
         *       "flow_id": "2f6d8a1c-4b3e-4d5f-9a7b-8c9d0e1f2a3b",
         *       "name": "Lead",
         *       "position": 1,
         *       "deadline_days": 7,
         *       "win_probability": 10,
         *       "color": "#90CAF9"
         *     }
         */
        Stage: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            flow_id: string;
            name: string;
            /** @description 1-based order within the flow */
            position: number;
            /** @description Days a dossier may stay in the stage; 0 means due on entry */
            deadline_days: number | null;
            /** @description Percentage */
            win_probability: number;
            /** @description #RGB or #RRGGBB */
            color: string;
        };
        /**
         * @example {
         *       "dossier_id": "0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d",
         *       "contact_id": "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
         *       "role_on_dossier": "decision_maker",
         *       "is_primary": true
         *     }
         */
        Link: {
            /** Format: uuid */
            dossier_id: string;
            /** Format: uuid */
            contact_id: string;
            role_on_dossier: components["schemas"]["LinkRole"];
            /** @description At most one primary per dossier */
            is_primary: boolean;
        };
        /** @enum {string} */
        LinkRole: "primary" | "hiring_manager" | "decision_maker" | "champion" | "gatekeeper" | "introducer" | "other";
        /**
         * @example {
         *       "contact_id": "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
         *       "full_name": "Jane Doe",
         *       "email": "jane.doe@acme.example",
         *       "company": "Acme",
         *       "role_on_dossier": "decision_maker",
         *       "is_primary": true
         *     }
         */
        LinkedContact: {
            /** Format: uuid */
            contact_id: string;
            full_name: string;
            email: string | null;
            company: string | null;
            role_on_dossier: components["schemas"]["LinkRole"];
            is_primary: boolean;
        };
        /**
         * @example {
         *       "dossier_id": "0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d",
         *       "contact_id": "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
         *       "unlinked": true
         *     }
         */
        Unlinked: {
            /** Format: uuid */
            dossier_id: string;
            /** Format: uuid */
            contact_id: string;
            /** @constant */
            unlinked: true;
        };
        /**
         * @example {
         *       "total": 1,
         *       "page": 1,
         *       "per_page": 25
         *     }
         */
        Meta: {
            /** @description Number of items across all pages */
            total: number;
            page: number;
            /** @description The page size asked for; on an unpaginated list, the number of items */
            per_page: number;
        };
        /**
         * @example {
         *       "total": 1,
         *       "page": 1,
         *       "per_page": 25,
         *       "next_after": null
         *     }
         */
        PageMeta: {
            /** @description Number of items across all pages (with `after` too: the list's total for its filters) */
            total: number;
            /** @description The page number asked for; on a page asked for with `after`, 1 (pages are counted from the cursor) */
            page: number;
            /** @description The page size asked for; on an unpaginated list, the number of items */
            per_page: number;
            /** @description The cursor of the next page: pass it as `after` to read on from the last item of this page, with no item skipped or repeated while others write; null when no item follows */
            next_after: string | null;
        };
        /**
         * @description Your own key/value pairs (e.g. another system's record id); {} when none. At most 50 keys; a key 1 to 40 characters, without [ or ]; a value a string of at most 500 characters (code points). Keys are listed sorted (integer-like keys first, as JavaScript orders them)
         * @example {
         *       "erp_id": "ACME-0042"
         *     }
         */
        Metadata: {
            [key: string]: string;
        };
        /**
         * @example {
         *       "error": {
         *         "code": "not_found",
         *         "message": "dossier not found"
         *       }
         *     }
         */
        Error: {
            error: {
                /**
                 * @description Stable, machine-readable
                 * @enum {string}
                 */
                code: "invalid_body" | "unauthorized" | "plan_required" | "forbidden" | "not_found" | "request_timeout" | "duplicate_contact" | "file_too_large" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal" | "storage_unavailable" | "insufficient_storage" | "invalid_setup_link" | "invalid_credentials" | "csrf_failed" | "duplicate_member" | "last_owner" | "stage_not_empty" | "last_stage" | "delivery_not_failed" | "idempotency_key_in_use" | "cursor_expired" | "precondition_failed" | "idempotency_key_reused" | "server_busy" | "import_not_revertable";
                /** @description Human readable */
                message: string;
                /** @description The body field (`name`, `stages[2].color`) or query parameter at fault, when one is: on a 400 invalid_body, on a 404 for an id given in the body (`flow_id`, `contact_id`), on a 409 duplicate_contact or duplicate_member (`email`) */
                param?: string;
                /** @description The answer's X-Request-Id (the client's when it sent a safe one): quote it when asking about this answer. Always present in practice */
                request_id?: string;
            };
        };
        /**
         * @example {
         *       "data": {
         *         "id": "0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d",
         *         "organization_id": "7e9a1c2b-3d4f-4a5b-8c6d-0e1f2a3b4c5d",
         *         "flow_id": "2f6d8a1c-4b3e-4d5f-9a7b-8c9d0e1f2a3b",
         *         "type": "sales",
         *         "name": "Acme renewal 2027",
         *         "email": "jane.doe@acme.example",
         *         "phone": "+33 1 23 45 67 89",
         *         "company": "Acme",
         *         "role": "Head of procurement",
         *         "contact_person": "Jane Doe",
         *         "status": "active",
         *         "current_stage_id": "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
         *         "assigned_to": null,
         *         "deal_size": 12500.5,
         *         "deal_currency": "EUR",
         *         "intake_notes": "Met at the trade fair.",
         *         "cv_url": null,
         *         "contact_id": "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
         *         "stage_entered_at": "2026-11-22T04:21:26.123Z",
         *         "stage_due_at": "2026-11-29T04:21:26.123Z",
         *         "created_at": "2026-11-22T04:21:26.123Z",
         *         "updated_at": "2026-11-22T04:21:26.123Z",
         *         "metadata": {
         *           "erp_id": "ACME-0042"
         *         }
         *       }
         *     }
         */
        DossierEnvelope: {
            data: components["schemas"]["Dossier"];
        };
        /**
         * @example {
         *       "data": [
         *         {
         *           "id": "0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d",
         *           "organization_id": "7e9a1c2b-3d4f-4a5b-8c6d-0e1f2a3b4c5d",
         *           "flow_id": "2f6d8a1c-4b3e-4d5f-9a7b-8c9d0e1f2a3b",
         *           "type": "sales",
         *           "name": "Acme renewal 2027",
         *           "email": "jane.doe@acme.example",
         *           "phone": "+33 1 23 45 67 89",
         *           "company": "Acme",
         *           "role": "Head of procurement",
         *           "contact_person": "Jane Doe",
         *           "status": "active",
         *           "current_stage_id": "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
         *           "assigned_to": null,
         *           "deal_size": 12500.5,
         *           "deal_currency": "EUR",
         *           "intake_notes": "Met at the trade fair.",
         *           "cv_url": null,
         *           "contact_id": "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
         *           "stage_entered_at": "2026-11-22T04:21:26.123Z",
         *           "stage_due_at": "2026-11-29T04:21:26.123Z",
         *           "created_at": "2026-11-22T04:21:26.123Z",
         *           "updated_at": "2026-11-22T04:21:26.123Z",
         *           "metadata": {
         *             "erp_id": "ACME-0042"
         *           }
         *         }
         *       ],
         *       "meta": {
         *         "total": 1,
         *         "page": 1,
         *         "per_page": 25,
         *         "next_after": null
         *       }
         *     }
         */
        DossierList: {
            data: components["schemas"]["Dossier"][];
            meta: components["schemas"]["PageMeta"];
        };
        /**
         * @example {
         *       "data": {
         *         "id": "0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d",
         *         "status": "archived"
         *       }
         *     }
         */
        ArchivedDossierEnvelope: {
            data: components["schemas"]["ArchivedDossier"];
        };
        /**
         * @example {
         *       "data": {
         *         "id": "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
         *         "full_name": "Jane Doe",
         *         "email": "jane.doe@acme.example",
         *         "phone": "+33 1 23 45 67 89",
         *         "linkedin_url": "https://www.linkedin.com/in/janedoe",
         *         "company": "Acme",
         *         "role": "Head of procurement",
         *         "city": "Lyon",
         *         "kind": [
         *           "prospect",
         *           "client"
         *         ],
         *         "notes": null,
         *         "dossier_count": 1,
         *         "pool_added_at": null,
         *         "pool_expires_at": null,
         *         "created_at": "2026-11-22T04:21:26.123Z",
         *         "updated_at": "2026-11-22T04:21:26.123Z",
         *         "metadata": {
         *           "crm_id": "003Dn00000XyZ12"
         *         }
         *       }
         *     }
         */
        ContactEnvelope: {
            data: components["schemas"]["Contact"];
        };
        /**
         * @example {
         *       "data": [
         *         {
         *           "id": "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
         *           "full_name": "Jane Doe",
         *           "email": "jane.doe@acme.example",
         *           "phone": "+33 1 23 45 67 89",
         *           "linkedin_url": "https://www.linkedin.com/in/janedoe",
         *           "company": "Acme",
         *           "role": "Head of procurement",
         *           "city": "Lyon",
         *           "kind": [
         *             "prospect",
         *             "client"
         *           ],
         *           "notes": null,
         *           "dossier_count": 1,
         *           "pool_added_at": null,
         *           "pool_expires_at": null,
         *           "created_at": "2026-11-22T04:21:26.123Z",
         *           "updated_at": "2026-11-22T04:21:26.123Z",
         *           "metadata": {
         *             "crm_id": "003Dn00000XyZ12"
         *           }
         *         }
         *       ],
         *       "meta": {
         *         "total": 1,
         *         "page": 1,
         *         "per_page": 25,
         *         "next_after": null
         *       }
         *     }
         */
        ContactList: {
            data: components["schemas"]["Contact"][];
            meta: components["schemas"]["PageMeta"];
        };
        /**
         * @example {
         *       "data": {
         *         "id": "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
         *         "deleted": true
         *       }
         *     }
         */
        DeletedContactEnvelope: {
            data: components["schemas"]["DeletedContact"];
        };
        /**
         * @example {
         *       "data": {
         *         "id": "3e4f5a6b-7c8d-4e9f-8a0b-1c2d3e4f5a6b",
         *         "dossier_id": "0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d",
         *         "content": "Called back, wants a proposal by Friday.",
         *         "is_internal": true,
         *         "created_at": "2026-11-22T04:21:26.123Z"
         *       }
         *     }
         */
        NoteEnvelope: {
            data: components["schemas"]["Note"];
        };
        /**
         * @example {
         *       "data": [
         *         {
         *           "id": "3e4f5a6b-7c8d-4e9f-8a0b-1c2d3e4f5a6b",
         *           "dossier_id": "0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d",
         *           "content": "Called back, wants a proposal by Friday.",
         *           "is_internal": true,
         *           "created_at": "2026-11-22T04:21:26.123Z"
         *         }
         *       ],
         *       "meta": {
         *         "total": 1,
         *         "page": 1,
         *         "per_page": 25,
         *         "next_after": null
         *       }
         *     }
         */
        NoteList: {
            data: components["schemas"]["Note"][];
            meta: components["schemas"]["PageMeta"];
        };
        /**
         * @example {
         *       "data": [
         *         {
         *           "id": "2f6d8a1c-4b3e-4d5f-9a7b-8c9d0e1f2a3b",
         *           "organization_id": "7e9a1c2b-3d4f-4a5b-8c6d-0e1f2a3b4c5d",
         *           "name": "Sales",
         *           "type": "sales",
         *           "is_default": true,
         *           "overdue_tasks": true,
         *           "stages": [
         *             {
         *               "id": "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
         *               "flow_id": "2f6d8a1c-4b3e-4d5f-9a7b-8c9d0e1f2a3b",
         *               "name": "Lead",
         *               "position": 1,
         *               "deadline_days": 7,
         *               "win_probability": 10,
         *               "color": "#90CAF9"
         *             }
         *           ]
         *         }
         *       ],
         *       "meta": {
         *         "total": 1,
         *         "page": 1,
         *         "per_page": 25
         *       }
         *     }
         */
        FlowList: {
            data: components["schemas"]["Flow"][];
            meta: components["schemas"]["Meta"];
        };
        /**
         * @example {
         *       "data": [
         *         {
         *           "id": "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
         *           "flow_id": "2f6d8a1c-4b3e-4d5f-9a7b-8c9d0e1f2a3b",
         *           "name": "Lead",
         *           "position": 1,
         *           "deadline_days": 7,
         *           "win_probability": 10,
         *           "color": "#90CAF9"
         *         }
         *       ],
         *       "meta": {
         *         "total": 1,
         *         "page": 1,
         *         "per_page": 25
         *       }
         *     }
         */
        StageList: {
            data: components["schemas"]["Stage"][];
            meta: components["schemas"]["Meta"];
        };
        /**
         * @example {
         *       "data": {
         *         "dossier_id": "0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d",
         *         "contact_id": "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
         *         "role_on_dossier": "decision_maker",
         *         "is_primary": true
         *       }
         *     }
         */
        LinkEnvelope: {
            data: components["schemas"]["Link"];
        };
        /**
         * @example {
         *       "data": [
         *         {
         *           "contact_id": "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
         *           "full_name": "Jane Doe",
         *           "email": "jane.doe@acme.example",
         *           "company": "Acme",
         *           "role_on_dossier": "decision_maker",
         *           "is_primary": true
         *         }
         *       ],
         *       "meta": {
         *         "total": 1,
         *         "page": 1,
         *         "per_page": 25
         *       }
         *     }
         */
        LinkedContactList: {
            data: components["schemas"]["LinkedContact"][];
            meta: components["schemas"]["Meta"];
        };
        /**
         * @example {
         *       "data": {
         *         "dossier_id": "0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d",
         *         "contact_id": "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
         *         "unlinked": true
         *       }
         *     }
         */
        UnlinkedEnvelope: {
            data: components["schemas"]["Unlinked"];
        };
        /**
         * @example {
         *       "type": "sales",
         *       "name": "Acme renewal 2027",
         *       "email": "jane.doe@acme.example",
         *       "company": "Acme",
         *       "contact_person": "Jane Doe",
         *       "deal_size": 12500.5,
         *       "deal_currency": "EUR"
         *     }
         */
        CreateDossier: {
            type: components["schemas"]["DossierType"];
            /** @description 1 to 200 characters after trimming; stored trimmed */
            name: string;
            /** @description At most 200 characters; one @, a dot in the domain; stored as given */
            email?: string | null;
            /** @description At most 200 characters */
            phone?: string | null;
            /** @description At most 200 characters */
            company?: string | null;
            /** @description At most 200 characters */
            role?: string | null;
            /**
             * Format: uuid
             * @description An existing contact to link as primary; default: the contact with the same email, or a new one
             */
            contact_id?: string | null;
            /**
             * Format: uuid
             * @description Default: the organization's default flow for the type
             */
            flow_id?: string | null;
            /** Format: uuid */
            assigned_to?: string | null;
            /** @description At most 20,000 characters */
            intake_notes?: string | null;
            /** @description Sales only. At most 200 characters */
            contact_person?: string | null;
            /** @description Sales only. A finite number >= 0, in the main currency unit */
            deal_size?: number | null;
            /** @description Sales only. ISO 4217 code known to the runtime, upper case */
            deal_currency?: string | null;
            /**
             * @description The pairs to keep; null or "" is the same as leaving it out
             * @example {
             *       "erp_id": "ACME-0042"
             *     }
             */
            metadata?: {
                [key: string]: string | null;
            } | string | null;
        };
        /**
         * @example {
         *       "type": "candidate",
         *       "name": "Ada Lovelace",
         *       "email": "ada@example.org",
         *       "role": "Software Engineer",
         *       "intake_notes": "Referred by Grace.",
         *       "cv": "%PDF-1.7 … (the bytes of the PDF file, at most 10 MB)"
         *     }
         */
        CreateDossierForm: {
            type: components["schemas"]["DossierType"];
            /** @description 1 to 200 characters after trimming; stored trimmed */
            name: string;
            /** @description At most 200 characters; one @, a dot in the domain; stored as given */
            email?: string;
            /** @description At most 200 characters */
            phone?: string;
            /** @description At most 200 characters */
            company?: string;
            /** @description At most 200 characters */
            role?: string;
            /**
             * Format: uuid
             * @description An existing contact to link as primary; default: the contact with the same email, or a new one
             */
            contact_id?: string;
            /**
             * Format: uuid
             * @description Default: the organization's default flow for the type
             */
            flow_id?: string;
            /** Format: uuid */
            assigned_to?: string;
            /** @description At most 20,000 characters */
            intake_notes?: string;
            /** @description Sales only. At most 200 characters */
            contact_person?: string;
            /** @description Sales only. A finite number >= 0, in the main currency unit; as a decimal string, e.g. 12500.50 */
            deal_size?: string;
            /** @description Sales only. ISO 4217 code known to the runtime, upper case */
            deal_currency?: string;
            /** @description The metadata as JSON text, e.g. {"erp_id":"ACME-0042"} (the JSON body's rules) */
            metadata?: string;
            /**
             * Format: binary
             * @description The CV: a PDF file of at most 10 MB (the whole body at most 11 MB)
             */
            cv?: Blob;
        };
        /**
         * @example {
         *       "status": "won",
         *       "current_stage_id": "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
         *       "assigned_to": null
         *     }
         */
        PatchDossier: {
            /** @description 1 to 200 characters after trimming; stored trimmed */
            name?: string;
            /** @description At most 200 characters; one @, a dot in the domain; stored as given */
            email?: string | null;
            /** @description At most 200 characters */
            phone?: string | null;
            /** @description At most 200 characters */
            company?: string | null;
            /** @description At most 200 characters */
            role?: string | null;
            /** @description Sales only. At most 200 characters */
            contact_person?: string | null;
            /** @description Sales only. A finite number >= 0, in the main currency unit */
            deal_size?: number | null;
            /** @description Sales only. ISO 4217 code known to the runtime, upper case */
            deal_currency?: string | null;
            status?: components["schemas"]["DossierStatus"];
            /** Format: uuid */
            assigned_to?: string | null;
            /** @description At most 20,000 characters */
            intake_notes?: string | null;
            /**
             * Format: uuid
             * @description A stage of the dossier's flow; null leaves the dossier in no stage
             */
            current_stage_id?: string | null;
            /**
             * @description An object merges (a key set to null or "" is removed); "" removes every key. null is refused: metadata is never null
             * @example {
             *       "erp_id": "ACME-0042"
             *     }
             */
            metadata?: {
                [key: string]: string | null;
            } | string;
        };
        /**
         * @example {
         *       "cv": "%PDF-1.7 … (the bytes of the PDF file, at most 10 MB)"
         *     }
         */
        CvForm: {
            /**
             * Format: binary
             * @description PDF, at most 10 MB
             */
            cv: Blob;
        };
        /**
         * @example {
         *       "full_name": "Jane Doe",
         *       "email": "jane.doe@acme.example",
         *       "company": "Acme",
         *       "kind": [
         *         "prospect"
         *       ],
         *       "pool_expires_at": "2027-06-30T00:00:00.000Z"
         *     }
         */
        CreateContact: {
            /** @description 1 to 200 characters after trimming; stored trimmed */
            full_name: string;
            /** @description At most 200 characters, one @ and a dot in the domain; unique per organization, compared case-insensitively */
            email?: string | null;
            /** @description At most 200 characters */
            phone?: string | null;
            /** @description http(s) URL, at most 500 characters */
            linkedin_url?: string | null;
            /** @description At most 200 characters */
            company?: string | null;
            /** @description At most 200 characters */
            role?: string | null;
            /** @description At most 200 characters */
            city?: string | null;
            /** @description At most 20,000 characters */
            notes?: string | null;
            /**
             * Format: date-time
             * @description Start of the talent-pool window; ISO 8601 date-time, stored in UTC with milliseconds
             */
            pool_added_at?: string | null;
            /**
             * Format: date-time
             * @description End of the talent-pool window; later than pool_added_at; ISO 8601 date-time, stored in UTC with milliseconds
             */
            pool_expires_at?: string | null;
            /** @description Default []; duplicates are dropped */
            kind?: components["schemas"]["ContactKind"][] | null;
            /**
             * @description The pairs to keep; null or "" is the same as leaving it out
             * @example {
             *       "erp_id": "ACME-0042"
             *     }
             */
            metadata?: {
                [key: string]: string | null;
            } | string | null;
        };
        /**
         * @example {
         *       "role": "CFO",
         *       "kind": [
         *         "client"
         *       ],
         *       "notes": null
         *     }
         */
        PatchContact: {
            /** @description 1 to 200 characters after trimming; not null */
            full_name?: string;
            /** @description At most 200 characters, one @ and a dot in the domain; unique per organization, compared case-insensitively */
            email?: string | null;
            /** @description At most 200 characters */
            phone?: string | null;
            /** @description http(s) URL, at most 500 characters */
            linkedin_url?: string | null;
            /** @description At most 200 characters */
            company?: string | null;
            /** @description At most 200 characters */
            role?: string | null;
            /** @description At most 200 characters */
            city?: string | null;
            /** @description At most 20,000 characters */
            notes?: string | null;
            /**
             * Format: date-time
             * @description Start of the talent-pool window; ISO 8601 date-time, stored in UTC with milliseconds
             */
            pool_added_at?: string | null;
            /**
             * Format: date-time
             * @description End of the talent-pool window; later than pool_added_at; ISO 8601 date-time, stored in UTC with milliseconds
             */
            pool_expires_at?: string | null;
            /** @description Replaces the whole array; not null */
            kind?: components["schemas"]["ContactKind"][];
            /**
             * @description An object merges (a key set to null or "" is removed); "" removes every key. null is refused: metadata is never null
             * @example {
             *       "erp_id": "ACME-0042"
             *     }
             */
            metadata?: {
                [key: string]: string | null;
            } | string;
        };
        /**
         * @example {
         *       "contact_id": "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
         *       "role_on_dossier": "decision_maker",
         *       "is_primary": true
         *     }
         */
        CreateLink: {
            /** @description A contact of the caller's organization */
            contact_id: string;
            role_on_dossier: components["schemas"]["LinkRole"];
            /** @description true demotes the dossier's previous primary; on a re-link, absent keeps the current value */
            is_primary?: boolean;
        };
        /** @description A dossier was created (POST /dossiers); data is the whole new dossier */
        DossierCreatedEvent: {
            /** @description Unique per event; a receiver that sees an id again has the event already (delivery is at least once) */
            id: string;
            /** @constant */
            type: "dossier.created";
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            created_at: string;
            /** Format: uuid */
            organization_id: string;
            data: components["schemas"]["Dossier"];
        };
        /** @description A field of a dossier changed (PATCH /dossiers/{id}, POST /dossiers/{id}/cv); data is the whole dossier after the change */
        DossierUpdatedEvent: {
            /** @description Unique per event; a receiver that sees an id again has the event already (delivery is at least once) */
            id: string;
            /** @constant */
            type: "dossier.updated";
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            created_at: string;
            /** Format: uuid */
            organization_id: string;
            data: components["schemas"]["Dossier"];
            previous_attributes: components["schemas"]["PreviousAttributes"];
        };
        /** @description current_stage_id changed (PATCH /dossiers/{id}); sent before the dossier.updated of the same request */
        DossierStageChangedEvent: {
            /** @description Unique per event; a receiver that sees an id again has the event already (delivery is at least once) */
            id: string;
            /** @constant */
            type: "dossier.stage_changed";
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            created_at: string;
            /** Format: uuid */
            organization_id: string;
            data: components["schemas"]["StageChange"];
        };
        /** @description A dossier was archived (DELETE /dossiers/{id}); data is the whole archived dossier */
        DossierDeletedEvent: {
            /** @description Unique per event; a receiver that sees an id again has the event already (delivery is at least once) */
            id: string;
            /** @constant */
            type: "dossier.deleted";
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            created_at: string;
            /** Format: uuid */
            organization_id: string;
            data: components["schemas"]["Dossier"];
        };
        /** @description A note was added to a dossier (POST /dossiers/{id}/notes); data is the note */
        NoteCreatedEvent: {
            /** @description Unique per event; a receiver that sees an id again has the event already (delivery is at least once) */
            id: string;
            /** @constant */
            type: "note.created";
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            created_at: string;
            /** Format: uuid */
            organization_id: string;
            data: components["schemas"]["Note"];
        };
        /**
         * @example {
         *       "id": "0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d",
         *       "current_stage_id": "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
         *       "previous_stage_id": "6b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
         *       "status": "active"
         *     }
         */
        StageChange: {
            /** Format: uuid */
            id: string;
            /**
             * Format: uuid
             * @description The stage the dossier is in now; null when the PATCH left it in no stage
             */
            current_stage_id: string | null;
            /**
             * Format: uuid
             * @description The stage it was in before
             */
            previous_stage_id: string | null;
            status: components["schemas"]["DossierStatus"];
        };
        /**
         * @description The fields the request changed, with their values before it
         * @example {
         *       "status": "active",
         *       "deal_size": 10000
         *     }
         */
        PreviousAttributes: {
            /** @description Candidate: the person's name. Sales: deal or account name. Stored trimmed */
            name?: string;
            /** @description Primary contact email, as given */
            email?: string | null;
            phone?: string | null;
            /** @description Candidate: current employer. Sales: target company */
            company?: string | null;
            /** @description Candidate: role applied for. Sales: role of the contact */
            role?: string | null;
            /** @description Sales only. Named contact at the target company */
            contact_person?: string | null;
            /** @description Sales only. Expected contract value, in the main currency unit */
            deal_size?: number | null;
            /** @description Sales only. ISO 4217 */
            deal_currency?: string | null;
            status?: components["schemas"]["DossierStatus"];
            /**
             * Format: uuid
             * @description User id of the assigned member
             */
            assigned_to?: string | null;
            intake_notes?: string | null;
            /**
             * Format: uuid
             * @description The stage the dossier is in
             */
            current_stage_id?: string | null;
            metadata?: components["schemas"]["Metadata"];
            /** @description <org_id>/dossiers/<dossier_id>/cv.pdf; null without a CV */
            cv_url?: string | null;
        };
        /**
         * @example {
         *       "id": "9b2f6a1e-8d4c-4f3b-9a7e-2c1d0e5f6a7b",
         *       "organization_id": "3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b",
         *       "email": "ada@example.com",
         *       "name": "Ada Lovelace",
         *       "role": "admin",
         *       "created_at": "2026-11-22T04:21:26.123Z",
         *       "last_sign_in_at": null,
         *       "disabled_at": null
         *     }
         */
        Member: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_id: string;
            /** @description Unique in the installation, compared case-insensitively */
            email: string;
            name: string;
            role: components["schemas"]["MemberRole"];
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            last_sign_in_at: string | null;
            /**
             * Format: date-time
             * @description Set once the member is disabled (DELETE): it can no longer sign in. ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            disabled_at: string | null;
        };
        /**
         * @description viewer: read; member: + write dossiers, contacts, notes; admin: + flows, members, keys, webhooks, events; owner: admin's, and only an owner makes, demotes or removes an owner
         * @enum {string}
         */
        MemberRole: "viewer" | "member" | "admin" | "owner";
        /**
         * @example {
         *       "id": "9b2f6a1e-8d4c-4f3b-9a7e-2c1d0e5f6a7b",
         *       "organization_id": "3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b",
         *       "email": "ada@example.com",
         *       "name": "Ada Lovelace",
         *       "role": "admin",
         *       "created_at": "2026-11-22T04:21:26.123Z",
         *       "last_sign_in_at": null,
         *       "disabled_at": null,
         *       "setup_url": "https://dossier.example.com/console/setup#token=q3V8Y1m0bKf2XcJ5dN7rT9wZ4hL6pA8sE1uG3iO5kM0"
         *     }
         */
        NewMember: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_id: string;
            /** @description Unique in the installation, compared case-insensitively */
            email: string;
            name: string;
            role: components["schemas"]["MemberRole"];
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            last_sign_in_at: string | null;
            /**
             * Format: date-time
             * @description Set once the member is disabled (DELETE): it can no longer sign in. ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            disabled_at: string | null;
            /**
             * @description <base>/console/setup#token=...: sets the member's password; valid 7 days and for one use, voids the member's older links
             * @example https://dossier.example.com/console/setup#token=q3V8Y1m0bKf2XcJ5dN7rT9wZ4hL6pA8sE1uG3iO5kM0
             */
            setup_url: string;
        };
        SetupLink: {
            /**
             * @description <base>/console/setup#token=...: sets the member's password; valid 7 days and for one use, voids the member's older links
             * @example https://dossier.example.com/console/setup#token=q3V8Y1m0bKf2XcJ5dN7rT9wZ4hL6pA8sE1uG3iO5kM0
             */
            setup_url: string;
        };
        /**
         * @example {
         *       "member": {
         *         "id": "9b2f6a1e-8d4c-4f3b-9a7e-2c1d0e5f6a7b",
         *         "organization_id": "3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b",
         *         "email": "ada@example.com",
         *         "name": "Ada Lovelace",
         *         "role": "admin",
         *         "created_at": "2026-11-22T04:21:26.123Z",
         *         "last_sign_in_at": null,
         *         "disabled_at": null
         *       },
         *       "csrf_token": "kW3nP0qXvB7yR2tF9sL4mC6hJ1dG8aZ5eU0iO3xN2bQ"
         *     }
         */
        Session: {
            member: components["schemas"]["Member"];
            /** @description Send it as X-CSRF-Token with every POST, PATCH, PUT and DELETE made with the session cookie */
            csrf_token: string;
        };
        SignedOut: {
            /** @constant */
            signed_out: true;
        };
        /**
         * @example {
         *       "data": {
         *         "id": "9b2f6a1e-8d4c-4f3b-9a7e-2c1d0e5f6a7b",
         *         "organization_id": "3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b",
         *         "email": "ada@example.com",
         *         "name": "Ada Lovelace",
         *         "role": "admin",
         *         "created_at": "2026-11-22T04:21:26.123Z",
         *         "last_sign_in_at": null,
         *         "disabled_at": null
         *       }
         *     }
         */
        MemberEnvelope: {
            data: components["schemas"]["Member"];
        };
        /**
         * @example {
         *       "data": [
         *         {
         *           "id": "9b2f6a1e-8d4c-4f3b-9a7e-2c1d0e5f6a7b",
         *           "organization_id": "3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b",
         *           "email": "ada@example.com",
         *           "name": "Ada Lovelace",
         *           "role": "admin",
         *           "created_at": "2026-11-22T04:21:26.123Z",
         *           "last_sign_in_at": null,
         *           "disabled_at": null
         *         }
         *       ],
         *       "meta": {
         *         "total": 1,
         *         "page": 1,
         *         "per_page": 25
         *       }
         *     }
         */
        MemberList: {
            data: components["schemas"]["Member"][];
            meta: components["schemas"]["Meta"];
        };
        /**
         * @example {
         *       "data": {
         *         "id": "9b2f6a1e-8d4c-4f3b-9a7e-2c1d0e5f6a7b",
         *         "organization_id": "3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b",
         *         "email": "ada@example.com",
         *         "name": "Ada Lovelace",
         *         "role": "admin",
         *         "created_at": "2026-11-22T04:21:26.123Z",
         *         "last_sign_in_at": null,
         *         "disabled_at": null,
         *         "setup_url": "https://dossier.example.com/console/setup#token=q3V8Y1m0bKf2XcJ5dN7rT9wZ4hL6pA8sE1uG3iO5kM0"
         *       }
         *     }
         */
        NewMemberEnvelope: {
            data: components["schemas"]["NewMember"];
        };
        SetupLinkEnvelope: {
            data: components["schemas"]["SetupLink"];
        };
        /**
         * @example {
         *       "data": {
         *         "member": {
         *           "id": "9b2f6a1e-8d4c-4f3b-9a7e-2c1d0e5f6a7b",
         *           "organization_id": "3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b",
         *           "email": "ada@example.com",
         *           "name": "Ada Lovelace",
         *           "role": "admin",
         *           "created_at": "2026-11-22T04:21:26.123Z",
         *           "last_sign_in_at": null,
         *           "disabled_at": null
         *         },
         *         "csrf_token": "kW3nP0qXvB7yR2tF9sL4mC6hJ1dG8aZ5eU0iO3xN2bQ"
         *       }
         *     }
         */
        SessionEnvelope: {
            data: components["schemas"]["Session"];
        };
        SignedOutEnvelope: {
            data: components["schemas"]["SignedOut"];
        };
        /**
         * @example {
         *       "email": "ada@example.com",
         *       "name": "Ada Lovelace",
         *       "role": "member"
         *     }
         */
        CreateMember: {
            /** @description An email address no member of the installation has (case-insensitively) */
            email: string;
            /** @description 1 to 200 characters after trimming */
            name: string;
            role: components["schemas"]["MemberRole"];
        };
        /**
         * @example {
         *       "role": "admin"
         *     }
         */
        PatchMember: {
            /** @description 1 to 200 characters after trimming */
            name?: string;
            role?: components["schemas"]["MemberRole"];
        };
        /**
         * @example {
         *       "email": "ada@example.com",
         *       "password": "correct horse battery staple"
         *     }
         */
        SignIn: {
            email: string;
            password: string;
        };
        /**
         * @example {
         *       "token": "q3V8Y1m0bKf2XcJ5dN7rT9wZ4hL6pA8sE1uG3iO5kM0",
         *       "password": "correct horse battery staple"
         *     }
         */
        SetupPassword: {
            /** @description The token of the setup link (after #token=) */
            token: string;
            /** @description 10 to 256 characters */
            password: string;
            /** @description The owner's email: needed by the first start's owner link, ignored by the others */
            email?: string;
            /** @description The owner's name: needed by the first start's owner link, ignored by the others */
            name?: string;
        };
        /**
         * @example {
         *       "data": {
         *         "id": "2f6d8a1c-4b3e-4d5f-9a7b-8c9d0e1f2a3b",
         *         "organization_id": "7e9a1c2b-3d4f-4a5b-8c6d-0e1f2a3b4c5d",
         *         "name": "Sales",
         *         "type": "sales",
         *         "is_default": true,
         *         "overdue_tasks": true,
         *         "stages": [
         *           {
         *             "id": "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
         *             "flow_id": "2f6d8a1c-4b3e-4d5f-9a7b-8c9d0e1f2a3b",
         *             "name": "Lead",
         *             "position": 1,
         *             "deadline_days": 7,
         *             "win_probability": 10,
         *             "color": "#90CAF9"
         *           }
         *         ]
         *       }
         *     }
         */
        FlowEnvelope: {
            data: components["schemas"]["Flow"];
        };
        /**
         * @example {
         *       "data": {
         *         "id": "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
         *         "flow_id": "2f6d8a1c-4b3e-4d5f-9a7b-8c9d0e1f2a3b",
         *         "name": "Lead",
         *         "position": 1,
         *         "deadline_days": 7,
         *         "win_probability": 10,
         *         "color": "#90CAF9"
         *       }
         *     }
         */
        StageEnvelope: {
            data: components["schemas"]["Stage"];
        };
        /**
         * @example {
         *       "id": "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
         *       "deleted": true
         *     }
         */
        DeletedStage: {
            /** Format: uuid */
            id: string;
            /** @constant */
            deleted: true;
        };
        /**
         * @example {
         *       "data": {
         *         "id": "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
         *         "deleted": true
         *       }
         *     }
         */
        DeletedStageEnvelope: {
            data: components["schemas"]["DeletedStage"];
        };
        /**
         * @example {
         *       "type": "candidate",
         *       "name": "Engineering hiring",
         *       "is_default": false,
         *       "stages": [
         *         {
         *           "name": "Applied",
         *           "deadline_days": 3,
         *           "win_probability": 10,
         *           "color": "#90CAF9"
         *         },
         *         {
         *           "name": "Hired"
         *         }
         *       ]
         *     }
         */
        CreateFlow: {
            type: components["schemas"]["FlowType"];
            /** @description 1 to 200 characters after trimming; stored trimmed */
            name: string;
            /** @description Make it the default flow of its type, taking the flag from the current one (default false) */
            is_default?: boolean;
            /** @description At least one, in order: position is the 1-based place in the array */
            stages: components["schemas"]["NewFlowStage"][];
        };
        NewFlowStage: {
            /** @description 1 to 200 characters after trimming; stored trimmed */
            name: string;
            /** @description Days a dossier may stay in the stage; 0 means due on entry; null: no deadline */
            deadline_days?: number | null;
            /** @description Percentage (default 0) */
            win_probability?: number;
            /** @description #RGB or #RRGGBB (default #9E9E9E) */
            color?: string;
        };
        /**
         * @example {
         *       "name": "Engineering hiring 2027",
         *       "is_default": true,
         *       "overdue_tasks": false
         *     }
         */
        PatchFlow: {
            /** @description 1 to 200 characters after trimming; stored trimmed */
            name?: string;
            /** @description true makes it the default of its type (the flag moves); false on the default is refused: make another flow the default instead */
            is_default?: boolean;
            /** @description false: an overdue stage no longer makes a follow-up task (C22) */
            overdue_tasks?: boolean;
        };
        /**
         * @example {
         *       "name": "Technical test",
         *       "deadline_days": 5,
         *       "win_probability": 40,
         *       "color": "#FFB74D",
         *       "position": 3
         *     }
         */
        CreateStage: {
            /** @description 1 to 200 characters after trimming; stored trimmed */
            name: string;
            /** @description Days a dossier may stay in the stage; 0 means due on entry; null: no deadline */
            deadline_days?: number | null;
            /** @description Percentage (default 0) */
            win_probability?: number;
            /** @description #RGB or #RRGGBB (default #9E9E9E) */
            color?: string;
            /** @description 1 to n + 1 (n stages now); the stages from there on move one down. Default: last */
            position?: number;
        };
        /**
         * @example {
         *       "name": "Phone screen",
         *       "position": 1
         *     }
         */
        PatchStage: {
            /** @description 1 to 200 characters after trimming; stored trimmed */
            name?: string;
            /** @description Days a dossier may stay in the stage; 0 means due on entry; null: no deadline */
            deadline_days?: number | null;
            /** @description Percentage */
            win_probability?: number;
            /** @description #RGB or #RRGGBB */
            color?: string;
            /** @description 1 to n (n stages of the flow); the stages between its old and new place shift by one */
            position?: number;
        };
        FlowStats: {
            /** Format: uuid */
            flow_id: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            from: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            to: string;
            /** @description By position */
            stages: components["schemas"]["StageStats"][];
            /** @description Dossiers of the flow now won whose last change to won falls in the period */
            won: number;
            /** @description Dossiers of the flow now lost whose last change to lost falls in the period */
            lost: number;
            /** @description won / (won + lost); null when both are 0 */
            win_rate: number | null;
            /** @description Sales flows only (null for a candidate flow), by currency */
            pipeline: components["schemas"]["PipelineValue"][] | null;
        };
        StageStats: {
            /** Format: uuid */
            stage_id: string;
            name: string;
            position: number;
            /** @description Dossiers now in the stage whose status is active */
            active: number;
            /** @description Of those, the ones whose stage_due_at has passed */
            overdue: number;
            /** @description Entries into the stage in the period (creation into the first stage included) */
            entered: number;
            /** @description Moves out of the stage to another stage in the period (not to no stage; becoming won or lost is not leaving) */
            left: number;
            /** @description Median decimal days spent in the stage by the stays `left` counts; null when none */
            median_days: number | null;
            /** @description Of `left`, the moves to a stage of higher position */
            went_on: number;
            /** @description went_on / left; null when left is 0 */
            went_on_share: number | null;
        };
        PipelineValue: {
            /** @description ISO 4217 */
            currency: string;
            /** @description Sum of deal_size over the flow's active dossiers in this currency */
            open_value: number;
            /** @description Sum of deal_size × the current stage's win_probability / 100 */
            weighted_value: number;
        };
        /**
         * @example {
         *       "data": {
         *         "flow_id": "0b8e7a52-3c1d-4f7e-9a55-1c2d3e4f5a6b",
         *         "from": "2026-09-01T00:00:00.000Z",
         *         "to": "2026-11-30T00:00:00.000Z",
         *         "stages": [
         *           {
         *             "stage_id": "4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
         *             "name": "Qualified",
         *             "position": 1,
         *             "active": 12,
         *             "overdue": 2,
         *             "entered": 30,
         *             "left": 20,
         *             "median_days": 3.5,
         *             "went_on": 15,
         *             "went_on_share": 0.75
         *           }
         *         ],
         *         "won": 6,
         *         "lost": 4,
         *         "win_rate": 0.6,
         *         "pipeline": [
         *           {
         *             "currency": "EUR",
         *             "open_value": 120000,
         *             "weighted_value": 36000
         *           }
         *         ]
         *       }
         *     }
         */
        FlowStatsEnvelope: {
            data: components["schemas"]["FlowStats"];
        };
        /**
         * @example {
         *       "data": [
         *         {
         *           "at": "2026-11-22T04:21:26.123Z",
         *           "kind": "created",
         *           "actor": {
         *             "type": "key",
         *             "id": "0b8e7a52-3c1d-4f7e-9a55-1c2d3e4f5a6b",
         *             "name": "ATS sync"
         *           },
         *           "changes": {
         *             "name": [
         *               null,
         *               "Jane Doe"
         *             ],
         *             "status": [
         *               null,
         *               "active"
         *             ]
         *           }
         *         }
         *       ],
         *       "meta": {
         *         "stages": [
         *           {
         *             "stage_id": "4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
         *             "entered_at": "2026-11-22T04:21:26.123Z",
         *             "left_at": null,
         *             "days": 1.5
         *           }
         *         ]
         *       }
         *     }
         */
        DossierHistory: {
            data: components["schemas"]["HistoryItem"][];
            meta: {
                stages: components["schemas"]["StageStay"][];
            };
        };
        HistoryItem: {
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            at: string;
            /** @enum {string} */
            kind: "created" | "updated" | "stage_changed" | "cv_attached" | "note_added" | "archived" | "contact_linked" | "contact_unlinked" | "task_created" | "task_done";
            actor: ((components["schemas"]["HistoryActor"] | null) | null) | components["schemas"]["HistoryActor"] | null;
            /** @description field → [old, new] */
            changes: {
                [key: string]: (null | boolean | number | string | unknown[] | {
                    [key: string]: unknown;
                })[];
            };
        };
        /** @description Who made the change */
        HistoryActor: {
            /** @enum {string} */
            type: "key" | "member" | "email" | "cli" | "import";
            /** @description The key's or member's id, the sender's address, the system user who ran the command, or the CSV import's id (C21) */
            id: string;
            name: string | null;
        };
        StageStay: {
            /** Format: uuid */
            stage_id: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            entered_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            left_at: string | null;
            /** @description Decimal days spent in the stage (up to now while still there) */
            days: number;
        };
        /**
         * @example {
         *       "address": "7qk2m9x4c8v1b6n3z5p0r2t4wd@jobs.example.com"
         *     }
         */
        IntakeAddress: {
            /** @description Mail to this address becomes a dossier of the flow: a random token of 26 lower-case letters and digits at DOSSIER_INTAKE_DOMAIN */
            address: string;
        };
        /**
         * @example {
         *       "data": {
         *         "address": "7qk2m9x4c8v1b6n3z5p0r2t4wd@jobs.example.com"
         *       }
         *     }
         */
        IntakeAddressEnvelope: {
            data: components["schemas"]["IntakeAddress"];
        };
        /**
         * @example {
         *       "id": "2f6d8a1c-4b3e-4d5f-9a7b-8c9d0e1f2a3b"
         *     }
         */
        IntakeReceipt: {
            /**
             * Format: uuid
             * @description The dossier the message became (never the dossier itself: the sender holds no key)
             */
            id: string;
        };
        /**
         * @example {
         *       "data": {
         *         "id": "2f6d8a1c-4b3e-4d5f-9a7b-8c9d0e1f2a3b"
         *       }
         *     }
         */
        IntakeReceiptEnvelope: {
            data: components["schemas"]["IntakeReceipt"];
        };
        /**
         * Format: binary
         * @description The raw message (RFC 5322), at most 25 MB (26,214,400 bytes)
         * @example From: Jane Doe <jane@example.com>
         *     Subject: Application
         *     Message-ID: <1@example.com>
         *
         *     Please find my CV attached.
         */
        EmailMessage: Blob;
        /**
         * Format: binary
         * @description The PDF bytes, at most 10 MB
         * @example %PDF-1.7 … (the bytes of the PDF file, at most 10 MB)
         */
        PdfFile: Blob;
        /**
         * @description A CSV file: RFC 4180, UTF-8 with a byte order mark, CRLF line ends, a header row of the resource's field names
         * @example id,full_name,email
         *     9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d,Jane Doe,jane.doe@acme.example
         */
        CsvFile: string;
        /**
         * @example {
         *       "id": "5b0c7e2a-1f3d-4c6b-9a8e-2d4f6a8c0e1b",
         *       "resource": "contacts",
         *       "status": "succeeded",
         *       "dry_run": false,
         *       "mode": "upsert",
         *       "match_on": "email",
         *       "file_name": "contacts.csv",
         *       "rows": 3,
         *       "processed": 3,
         *       "created": 1,
         *       "updated": 1,
         *       "skipped": 0,
         *       "failed": 1,
         *       "errors": [
         *         {
         *           "row": 4,
         *           "column": "Email",
         *           "message": "email: must be an email address"
         *         }
         *       ],
         *       "created_at": "2026-11-22T04:21:26.123Z",
         *       "finished_at": "2026-11-22T04:21:27.456Z",
         *       "revert": null
         *     }
         */
        Import: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            resource: "contacts" | "dossiers";
            status: components["schemas"]["ImportStatus"];
            /** @description A dry run validates every row and writes none: the counts say what a real run would do */
            dry_run: boolean;
            /** @enum {string} */
            mode: "create" | "update" | "upsert";
            /**
             * @description The field an update or upsert finds each row's record by
             * @enum {string}
             */
            match_on: "email" | "id";
            /** @description The uploaded file's name, when it had one */
            file_name: string | null;
            /** @description Data rows in the file (the header row and blank rows left out) */
            rows: number;
            /** @description Rows done so far: created + updated + skipped + failed */
            processed: number;
            created: number;
            updated: number;
            /** @description Rows that matched a record and changed nothing */
            skipped: number;
            /** @description Rows refused, each with its reason among `errors` */
            failed: number;
            /** @description The first 1,000 rows' errors, in row order */
            errors: components["schemas"]["ImportError"][];
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            finished_at: string | null;
            revert: ((components["schemas"]["ImportRevert"] | null) | null) | components["schemas"]["ImportRevert"] | null;
        };
        /**
         * @example {
         *       "row": 4,
         *       "column": "Email",
         *       "message": "email: must be an email address"
         *     }
         */
        ImportError: {
            /** @description The spreadsheet's row number: the header row is row 1, the first data row 2 */
            row: number;
            /** @description The CSV header of the cell at fault; null when the whole row is */
            column: string | null;
            /** @description Why the row was refused, as the API would refuse the same create or update */
            message: string;
        };
        /**
         * @description What the revert did (null until the import is reverted)
         * @example {
         *       "undone": 2,
         *       "skipped": 0,
         *       "reverted_at": "2026-11-22T05:00:00.000Z"
         *     }
         */
        ImportRevert: {
            /** @description Rows whose change was undone: contacts deleted, dossiers archived, fields put back */
            undone: number;
            /** @description Rows left as they are because a later change touched them */
            skipped: number;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            reverted_at: string;
        };
        /**
         * @description queued, running, then succeeded or failed; reverted once POST /imports/{id}/revert has run
         * @enum {string}
         */
        ImportStatus: "queued" | "running" | "succeeded" | "failed" | "reverted";
        /**
         * @example {
         *       "file": "full_name,Email\r\nJane Doe,jane@acme.example\r\n",
         *       "resource": "contacts",
         *       "mapping": "{\"full_name\":\"full_name\",\"Email\":\"email\"}",
         *       "mode": "upsert"
         *     }
         */
        ImportForm: {
            /**
             * Format: binary
             * @description The CSV file: at most 50 MB and 200,000 rows; UTF-8 (with or without BOM), UTF-16 with BOM, or Windows-1252; `,`, `;` or tab
             */
            file: Blob;
            /** @enum {string} */
            resource: "contacts" | "dossiers";
            /** @description JSON object from a CSV header to a field name; a header left out (or mapped to null) is not imported */
            mapping: string;
            /**
             * @description create (the default), update or upsert
             * @enum {string}
             */
            mode?: "create" | "update" | "upsert";
            /**
             * @description email (contacts' default) or id (dossiers' only)
             * @enum {string}
             */
            match_on?: "email" | "id";
            /**
             * @description true: validate every row, write none (default false)
             * @enum {string}
             */
            dry_run?: "true" | "false";
            /**
             * @description false: the rows made or changed record no event (default true)
             * @enum {string}
             */
            emit_events?: "true" | "false";
            /**
             * Format: uuid
             * @description Dossiers: the flow of every row (default: the organization's default flow of the type)
             */
            flow_id?: string;
            /**
             * @description Dossiers: the type of every row, else a column mapped to type gives it
             * @enum {string}
             */
            type?: "candidate" | "sales";
            /** @description Dossiers: the header of the column that holds each row's stage name */
            stage?: string;
        };
        /**
         * @example {
         *       "data": {
         *         "id": "5b0c7e2a-1f3d-4c6b-9a8e-2d4f6a8c0e1b",
         *         "resource": "contacts",
         *         "status": "succeeded",
         *         "dry_run": false,
         *         "mode": "upsert",
         *         "match_on": "email",
         *         "file_name": "contacts.csv",
         *         "rows": 3,
         *         "processed": 3,
         *         "created": 1,
         *         "updated": 1,
         *         "skipped": 0,
         *         "failed": 1,
         *         "errors": [
         *           {
         *             "row": 4,
         *             "column": "Email",
         *             "message": "email: must be an email address"
         *           }
         *         ],
         *         "created_at": "2026-11-22T04:21:26.123Z",
         *         "finished_at": "2026-11-22T04:21:27.456Z",
         *         "revert": null
         *       }
         *     }
         */
        ImportEnvelope: {
            data: components["schemas"]["Import"];
        };
        /**
         * @example {
         *       "data": [
         *         {
         *           "id": "5b0c7e2a-1f3d-4c6b-9a8e-2d4f6a8c0e1b",
         *           "resource": "contacts",
         *           "status": "succeeded",
         *           "dry_run": false,
         *           "mode": "upsert",
         *           "match_on": "email",
         *           "file_name": "contacts.csv",
         *           "rows": 3,
         *           "processed": 3,
         *           "created": 1,
         *           "updated": 1,
         *           "skipped": 0,
         *           "failed": 1,
         *           "errors": [
         *             {
         *               "row": 4,
         *               "column": "Email",
         *               "message": "email: must be an email address"
         *             }
         *           ],
         *           "created_at": "2026-11-22T04:21:26.123Z",
         *           "finished_at": "2026-11-22T04:21:27.456Z",
         *           "revert": null
         *         }
         *       ],
         *       "meta": {
         *         "total": 1,
         *         "page": 1,
         *         "per_page": 25,
         *         "next_after": null
         *       }
         *     }
         */
        ImportList: {
            data: components["schemas"]["Import"][];
            meta: components["schemas"]["PageMeta"];
        };
        /**
         * @description A scope (C12): what a key or a role may do
         * @enum {string}
         */
        Scope: "dossiers:read" | "dossiers:write" | "contacts:read" | "contacts:write" | "flows:read" | "notes:read" | "notes:write" | "flows:write" | "members:manage" | "keys:manage" | "webhooks:manage" | "events:read" | "tasks:read" | "tasks:write" | "mail:read";
        /**
         * @example {
         *       "id": "3c2b1a0f-9e8d-4c7b-8a6f-5e4d3c2b1a0f",
         *       "prefix": "svc_live_Ab3",
         *       "scopes": [
         *         "dossiers:read",
         *         "dossiers:write"
         *       ],
         *       "expires_at": null,
         *       "revoked_at": null,
         *       "last_used_at": "2026-11-22T04:21:26.123Z",
         *       "name": "Website form"
         *     }
         */
        ApiKey: {
            /** Format: uuid */
            id: string;
            /** @description The first 12 characters of the key, for telling keys apart (the key itself is never shown again) */
            prefix: string;
            /** @description The scopes the key grants */
            scopes: components["schemas"]["Scope"][];
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            expires_at: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            revoked_at: string | null;
            /**
             * Format: date-time
             * @description Written at most once a minute per key
             */
            last_used_at: string | null;
            /** @description A label for the key; at most 200 characters */
            name: string | null;
        };
        /**
         * @example {
         *       "data": [
         *         {
         *           "id": "3c2b1a0f-9e8d-4c7b-8a6f-5e4d3c2b1a0f",
         *           "prefix": "svc_live_Ab3",
         *           "scopes": [
         *             "dossiers:read",
         *             "dossiers:write"
         *           ],
         *           "expires_at": null,
         *           "revoked_at": null,
         *           "last_used_at": "2026-11-22T04:21:26.123Z",
         *           "name": "Website form"
         *         }
         *       ],
         *       "meta": {
         *         "total": 1,
         *         "page": 1,
         *         "per_page": 25
         *       }
         *     }
         */
        ApiKeyList: {
            data: components["schemas"]["ApiKey"][];
            meta: components["schemas"]["Meta"];
        };
        /**
         * @example {
         *       "data": {
         *         "id": "3c2b1a0f-9e8d-4c7b-8a6f-5e4d3c2b1a0f",
         *         "prefix": "svc_live_Ab3",
         *         "scopes": [
         *           "dossiers:read",
         *           "dossiers:write"
         *         ],
         *         "expires_at": null,
         *         "revoked_at": null,
         *         "last_used_at": "2026-11-22T04:21:26.123Z",
         *         "name": "Website form"
         *       }
         *     }
         */
        ApiKeyEnvelope: {
            data: components["schemas"]["ApiKey"];
        };
        /**
         * @example {
         *       "scopes": [
         *         "dossiers:read",
         *         "dossiers:write"
         *       ],
         *       "name": "Website form",
         *       "expires_at": "2027-12-31T23:59:59.000Z"
         *     }
         */
        CreateKey: {
            /** @description At least one; each one the caller holds itself (else 403 forbidden) */
            scopes: components["schemas"]["Scope"][];
            /** @description A label for the key; at most 200 characters */
            name?: string | null;
            /**
             * Format: date-time
             * @description ISO 8601, in the future: after it the key answers 401 (default: never)
             */
            expires_at?: string | null;
        };
        /**
         * @example {
         *       "id": "3c2b1a0f-9e8d-4c7b-8a6f-5e4d3c2b1a0f",
         *       "key": "svc_live_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z",
         *       "scopes": [
         *         "dossiers:read",
         *         "dossiers:write"
         *       ],
         *       "expires_at": "2027-12-31T23:59:59.000Z",
         *       "name": "Website form"
         *     }
         */
        CreatedKey: {
            /** Format: uuid */
            id: string;
            /** @description The key, shown this once only: only its SHA-256 hash is stored */
            key: string;
            /** @description The scopes the key grants */
            scopes: components["schemas"]["Scope"][];
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            expires_at: string | null;
            /** @description A label for the key; at most 200 characters */
            name: string | null;
        };
        /**
         * @example {
         *       "data": {
         *         "id": "3c2b1a0f-9e8d-4c7b-8a6f-5e4d3c2b1a0f",
         *         "key": "svc_live_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z",
         *         "scopes": [
         *           "dossiers:read",
         *           "dossiers:write"
         *         ],
         *         "expires_at": "2027-12-31T23:59:59.000Z",
         *         "name": "Website form"
         *       }
         *     }
         */
        CreatedKeyEnvelope: {
            data: components["schemas"]["CreatedKey"];
        };
        /**
         * @example {
         *       "url": "https://hooks.example.com/dossier",
         *       "enabled": true
         *     }
         */
        WebhookEndpoint: {
            /** @description http or https; a URL that resolves to a link-local address or another cloud metadata address (fd00:ec2::254, 100.100.100.200) is refused */
            url: string;
            /** @description false after the receiver answered 410 Gone: PUT the URL again to enable it */
            enabled: boolean;
        };
        /**
         * @example {
         *       "data": {
         *         "url": "https://hooks.example.com/dossier",
         *         "enabled": true
         *       }
         *     }
         */
        WebhookEndpointEnvelope: {
            data: components["schemas"]["WebhookEndpoint"];
        };
        /**
         * @example {
         *       "url": "https://hooks.example.com/dossier"
         *     }
         */
        SetWebhookEndpoint: {
            /** @description http or https; a URL that resolves to a link-local address or another cloud metadata address (fd00:ec2::254, 100.100.100.200) is refused */
            url: string;
        };
        /**
         * @example {
         *       "url": "https://hooks.example.com/dossier",
         *       "enabled": true,
         *       "secret": "whsec_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
         *     }
         */
        WebhookEndpointWithSecret: {
            /** @description http or https; a URL that resolves to a link-local address or another cloud metadata address (fd00:ec2::254, 100.100.100.200) is refused */
            url: string;
            enabled: boolean;
            /** @description The signing secret, shown this once only */
            secret: string;
        };
        /**
         * @example {
         *       "data": {
         *         "url": "https://hooks.example.com/dossier",
         *         "enabled": true,
         *         "secret": "whsec_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
         *       }
         *     }
         */
        WebhookEndpointWithSecretEnvelope: {
            data: components["schemas"]["WebhookEndpointWithSecret"];
        };
        /**
         * @example {
         *       "url": null,
         *       "enabled": false
         *     }
         */
        RemovedWebhookEndpoint: {
            url: null;
            /** @constant */
            enabled: false;
        };
        /**
         * @example {
         *       "data": {
         *         "url": null,
         *         "enabled": false
         *       }
         *     }
         */
        RemovedWebhookEndpointEnvelope: {
            data: components["schemas"]["RemovedWebhookEndpoint"];
        };
        /**
         * @example {
         *       "secret": "whsec_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
         *     }
         */
        RotatedWebhookSecret: {
            /** @description The new secret, shown this once only; the previous one keeps signing for 24 h */
            secret: string;
        };
        /**
         * @example {
         *       "data": {
         *         "secret": "whsec_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
         *       }
         *     }
         */
        RotatedWebhookSecretEnvelope: {
            data: components["schemas"]["RotatedWebhookSecret"];
        };
        /** @enum {string} */
        WebhookDeliveryStatus: "pending" | "succeeded" | "failed" | "skipped";
        /**
         * @example {
         *       "event_id": "evt_00000000000000000000000042",
         *       "type": "dossier.created",
         *       "status": "failed",
         *       "attempts": 10,
         *       "next_attempt_at": null,
         *       "last_status_code": 500,
         *       "last_error": "HTTP 500"
         *     }
         */
        WebhookDelivery: {
            /** @description The event's id */
            event_id: string;
            /**
             * @description The event's type
             * @enum {string}
             */
            type: "dossier.created" | "dossier.updated" | "dossier.stage_changed" | "dossier.deleted" | "note.created";
            status: components["schemas"]["WebhookDeliveryStatus"];
            attempts: number;
            /**
             * Format: date-time
             * @description When it is tried next; null unless pending
             */
            next_attempt_at: string | null;
            last_status_code: number | null;
            last_error: string | null;
        };
        /**
         * @example {
         *       "data": [
         *         {
         *           "event_id": "evt_00000000000000000000000042",
         *           "type": "dossier.created",
         *           "status": "failed",
         *           "attempts": 10,
         *           "next_attempt_at": null,
         *           "last_status_code": 500,
         *           "last_error": "HTTP 500"
         *         }
         *       ],
         *       "meta": {
         *         "total": 1,
         *         "page": 1,
         *         "per_page": 25,
         *         "next_after": null
         *       }
         *     }
         */
        WebhookDeliveryList: {
            data: components["schemas"]["WebhookDelivery"][];
            meta: components["schemas"]["PageMeta"];
        };
        WebhookDeliveryAttempt: {
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            at: string;
            /** @description The receiver's status; null when none came */
            status_code: number | null;
            /** @description The network error, time limit or HTTP status that made the attempt fail */
            error: string | null;
            duration_ms: number;
            /** @description The first 1 KB of the answer's body */
            response_snippet: string | null;
        };
        /**
         * @example {
         *       "event_id": "evt_00000000000000000000000042",
         *       "type": "dossier.created",
         *       "status": "failed",
         *       "attempts": 10,
         *       "next_attempt_at": null,
         *       "last_status_code": 500,
         *       "last_error": "HTTP 500",
         *       "attempt_log": [
         *         {
         *           "at": "2026-11-22T04:21:26.123Z",
         *           "status_code": 500,
         *           "error": "HTTP 500",
         *           "duration_ms": 41,
         *           "response_snippet": "oops"
         *         }
         *       ]
         *     }
         */
        WebhookDeliveryWithAttempts: {
            /** @description The event's id */
            event_id: string;
            /**
             * @description The event's type
             * @enum {string}
             */
            type: "dossier.created" | "dossier.updated" | "dossier.stage_changed" | "dossier.deleted" | "note.created";
            status: components["schemas"]["WebhookDeliveryStatus"];
            attempts: number;
            /**
             * Format: date-time
             * @description When it is tried next; null unless pending
             */
            next_attempt_at: string | null;
            last_status_code: number | null;
            last_error: string | null;
            /** @description Every attempt, oldest first */
            attempt_log: components["schemas"]["WebhookDeliveryAttempt"][];
        };
        /**
         * @example {
         *       "data": {
         *         "event_id": "evt_00000000000000000000000042",
         *         "type": "dossier.created",
         *         "status": "failed",
         *         "attempts": 10,
         *         "next_attempt_at": null,
         *         "last_status_code": 500,
         *         "last_error": "HTTP 500",
         *         "attempt_log": [
         *           {
         *             "at": "2026-11-22T04:21:26.123Z",
         *             "status_code": 500,
         *             "error": "HTTP 500",
         *             "duration_ms": 41,
         *             "response_snippet": "oops"
         *           }
         *         ]
         *       }
         *     }
         */
        WebhookDeliveryWithAttemptsEnvelope: {
            data: components["schemas"]["WebhookDeliveryWithAttempts"];
        };
        /**
         * @description One of the event types
         * @enum {string}
         */
        EventType: "dossier.created" | "dossier.updated" | "dossier.stage_changed" | "dossier.deleted" | "note.created";
        /** @description An event as its webhook body (C7); `type` tells which */
        Event: components["schemas"]["DossierCreatedEvent"] | components["schemas"]["DossierUpdatedEvent"] | components["schemas"]["DossierStageChangedEvent"] | components["schemas"]["DossierDeletedEvent"] | components["schemas"]["NoteCreatedEvent"];
        EventEnvelope: {
            data: components["schemas"]["Event"];
        };
        /**
         * @example {
         *       "has_more": false,
         *       "next_after": "evt_00000000000000000000000042"
         *     }
         */
        EventFeedMeta: {
            /** @description Whether more events follow now: read again at once with after=next_after */
            has_more: boolean;
            /** @description The `after` of the next read: the id of the last event in data; when data is empty, the `after` that was sent (null when none was) */
            next_after: string | null;
        };
        EventFeed: {
            data: components["schemas"]["Event"][];
            meta: components["schemas"]["EventFeedMeta"];
        };
        /**
         * @example {
         *       "id": "6d2e8f1a-3b4c-4d5e-9f6a-7b8c9d0e1f2a",
         *       "organization_id": "7e9a1c2b-3d4f-4a5b-8c6d-0e1f2a3b4c5d",
         *       "dossier_id": "0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d",
         *       "contact_id": null,
         *       "title": "Call Jane about the proposal",
         *       "notes": "She asked for the price list first.",
         *       "due_at": "2026-12-01T09:00:00.000Z",
         *       "remind_at": "2026-12-01T08:30:00.000Z",
         *       "assigned_to": "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
         *       "status": "open",
         *       "done_at": null,
         *       "created_by": {
         *         "kind": "member",
         *         "id": "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
         *       },
         *       "created_at": "2026-11-29T04:21:26.123Z",
         *       "updated_at": "2026-11-29T04:21:26.123Z"
         *     }
         */
        Task: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_id: string;
            /** Format: uuid */
            dossier_id: string | null;
            /** Format: uuid */
            contact_id: string | null;
            title: string;
            notes: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            due_at: string | null;
            /**
             * Format: date-time
             * @description When the assignee is sent a reminder by email (C22)
             */
            remind_at: string | null;
            /**
             * Format: uuid
             * @description A member of the organization
             */
            assigned_to: string | null;
            status: components["schemas"]["TaskStatus"];
            /**
             * Format: date-time
             * @description When the task was last marked done; null while open
             */
            done_at: string | null;
            created_by: components["schemas"]["TaskCreator"];
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            updated_at: string;
        };
        /** @enum {string} */
        TaskStatus: "open" | "done";
        TaskCreator: {
            /**
             * @description Who made the task: an API key, a signed-in member, the server (an overdue stage's follow-up) or the command line
             * @enum {string}
             */
            kind: "key" | "member" | "system" | "cli";
            /** @description The key's or member's id; null for the server and the command line */
            id: string | null;
        };
        /**
         * @example {
         *       "data": {
         *         "id": "6d2e8f1a-3b4c-4d5e-9f6a-7b8c9d0e1f2a",
         *         "organization_id": "7e9a1c2b-3d4f-4a5b-8c6d-0e1f2a3b4c5d",
         *         "dossier_id": "0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d",
         *         "contact_id": null,
         *         "title": "Call Jane about the proposal",
         *         "notes": "She asked for the price list first.",
         *         "due_at": "2026-12-01T09:00:00.000Z",
         *         "remind_at": "2026-12-01T08:30:00.000Z",
         *         "assigned_to": "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
         *         "status": "open",
         *         "done_at": null,
         *         "created_by": {
         *           "kind": "member",
         *           "id": "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
         *         },
         *         "created_at": "2026-11-29T04:21:26.123Z",
         *         "updated_at": "2026-11-29T04:21:26.123Z"
         *       }
         *     }
         */
        TaskEnvelope: {
            data: components["schemas"]["Task"];
        };
        /**
         * @example {
         *       "data": [
         *         {
         *           "id": "6d2e8f1a-3b4c-4d5e-9f6a-7b8c9d0e1f2a",
         *           "organization_id": "7e9a1c2b-3d4f-4a5b-8c6d-0e1f2a3b4c5d",
         *           "dossier_id": "0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d",
         *           "contact_id": null,
         *           "title": "Call Jane about the proposal",
         *           "notes": "She asked for the price list first.",
         *           "due_at": "2026-12-01T09:00:00.000Z",
         *           "remind_at": "2026-12-01T08:30:00.000Z",
         *           "assigned_to": "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
         *           "status": "open",
         *           "done_at": null,
         *           "created_by": {
         *             "kind": "member",
         *             "id": "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
         *           },
         *           "created_at": "2026-11-29T04:21:26.123Z",
         *           "updated_at": "2026-11-29T04:21:26.123Z"
         *         }
         *       ],
         *       "meta": {
         *         "total": 1,
         *         "page": 1,
         *         "per_page": 25,
         *         "next_after": null
         *       }
         *     }
         */
        TaskList: {
            data: components["schemas"]["Task"][];
            meta: components["schemas"]["PageMeta"];
        };
        /**
         * @example {
         *       "id": "6d2e8f1a-3b4c-4d5e-9f6a-7b8c9d0e1f2a",
         *       "deleted": true
         *     }
         */
        DeletedTask: {
            /** Format: uuid */
            id: string;
            /** @constant */
            deleted: true;
        };
        /**
         * @example {
         *       "data": {
         *         "id": "6d2e8f1a-3b4c-4d5e-9f6a-7b8c9d0e1f2a",
         *         "deleted": true
         *       }
         *     }
         */
        DeletedTaskEnvelope: {
            data: components["schemas"]["DeletedTask"];
        };
        /**
         * @example {
         *       "title": "Call Jane about the proposal",
         *       "due_at": "2026-12-01T09:00:00.000Z",
         *       "dossier_id": "0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d",
         *       "assigned_to": "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
         *     }
         */
        CreateTask: {
            /** @description 1 to 500 characters (code points) after trimming; stored as given */
            title: string;
            /** @description At most 20,000 characters */
            notes?: string | null;
            /**
             * Format: date-time
             * @description When the task is due: an ISO 8601 date-time with a time zone (Z or ±hh:mm), stored in UTC with milliseconds
             * @example 2026-12-01T09:00:00.000Z
             */
            due_at?: string | null;
            /**
             * Format: date-time
             * @description When to email the assignee a reminder: an ISO 8601 date-time with a time zone (Z or ±hh:mm), stored in UTC with milliseconds
             * @example 2026-12-01T09:00:00.000Z
             */
            remind_at?: string | null;
            /** @description A member of the organization (uuid) */
            assigned_to?: string | null;
            /** @description A dossier of the organization (uuid) */
            dossier_id?: string | null;
            /** @description A contact of the organization (uuid) */
            contact_id?: string | null;
            status?: components["schemas"]["TaskStatus"];
        };
        /**
         * @example {
         *       "status": "done"
         *     }
         */
        PatchTask: {
            /** @description 1 to 500 characters (code points) after trimming; stored as given */
            title?: string;
            /** @description At most 20,000 characters */
            notes?: string | null;
            /**
             * Format: date-time
             * @description When the task is due: an ISO 8601 date-time with a time zone (Z or ±hh:mm), stored in UTC with milliseconds
             * @example 2026-12-01T09:00:00.000Z
             */
            due_at?: string | null;
            /**
             * Format: date-time
             * @description When to email the assignee a reminder; a new time sends a new reminder: an ISO 8601 date-time with a time zone (Z or ±hh:mm), stored in UTC with milliseconds
             * @example 2026-12-01T09:00:00.000Z
             */
            remind_at?: string | null;
            /** @description A member of the organization (uuid) */
            assigned_to?: string | null;
            /** @description A dossier of the organization (uuid) */
            dossier_id?: string | null;
            /** @description A contact of the organization (uuid) */
            contact_id?: string | null;
            status?: components["schemas"]["TaskStatus"];
        };
        /**
         * @description queued: waiting for its (next) attempt; sending: an attempt is under way; sent: the server took it; failed: refused for good (5xx) or out of attempts
         * @enum {string}
         */
        MailStatus: "queued" | "sending" | "sent" | "failed";
        /**
         * @example {
         *       "id": "4c1d2e3f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
         *       "kind": "reminder",
         *       "recipient": "ada@example.com",
         *       "subject": "Reminder: Call Jane about the proposal",
         *       "member_id": "9b2f6a1e-8d4c-4f3b-9a7e-2c1d0e5f6a7b",
         *       "task_id": "6d2e8f1a-3b4c-4d5e-9f6a-7b8c9d0e1f2a",
         *       "status": "sent",
         *       "attempts": 1,
         *       "next_attempt_at": null,
         *       "last_error": null,
         *       "reply": "250 2.0.0 OK queued",
         *       "created_at": "2026-12-01T08:30:00.000Z",
         *       "sent_at": "2026-12-01T08:30:01.204Z"
         *     }
         */
        MailLogEntry: {
            /** Format: uuid */
            id: string;
            /** @description reminder or digest */
            kind: string;
            /** @description The address the message is sent to */
            recipient: string;
            subject: string;
            /** Format: uuid */
            member_id: string | null;
            /**
             * Format: uuid
             * @description The task of a reminder
             */
            task_id: string | null;
            status: components["schemas"]["MailStatus"];
            /** @description Attempts begun (at most 5: then, 1 min, 5 min, 30 min and 2 h after each failure) */
            attempts: number;
            /**
             * Format: date-time
             * @description When a queued message is tried (again)
             */
            next_attempt_at: string | null;
            /** @description The server's reply, or what went wrong, at the last failed attempt */
            last_error: string | null;
            /** @description The server's reply when it took the message */
            reply: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             * @example 2026-11-22T04:21:26.123Z
             */
            created_at: string;
            /** Format: date-time */
            sent_at: string | null;
        };
        /**
         * @example {
         *       "data": [
         *         {
         *           "id": "4c1d2e3f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
         *           "kind": "reminder",
         *           "recipient": "ada@example.com",
         *           "subject": "Reminder: Call Jane about the proposal",
         *           "member_id": "9b2f6a1e-8d4c-4f3b-9a7e-2c1d0e5f6a7b",
         *           "task_id": "6d2e8f1a-3b4c-4d5e-9f6a-7b8c9d0e1f2a",
         *           "status": "sent",
         *           "attempts": 1,
         *           "next_attempt_at": null,
         *           "last_error": null,
         *           "reply": "250 2.0.0 OK queued",
         *           "created_at": "2026-12-01T08:30:00.000Z",
         *           "sent_at": "2026-12-01T08:30:01.204Z"
         *         }
         *       ],
         *       "meta": {
         *         "total": 1,
         *         "page": 1,
         *         "per_page": 25
         *       }
         *     }
         */
        MailLogList: {
            data: components["schemas"]["MailLogEntry"][];
            meta: components["schemas"]["Meta"];
        };
        /**
         * @example {
         *       "time_zone": "Europe/Paris",
         *       "effective_time_zone": "Europe/Paris",
         *       "digest": true,
         *       "calendar_link": false
         *     }
         */
        MemberSettings: {
            /** @description The member's IANA time zone; null: the server's (DOSSIER_TIME_ZONE, else UTC) */
            time_zone: string | null;
            /** @description The zone in use: time_zone, else the server's */
            effective_time_zone: string;
            /** @description Whether the morning digest (08:00 in effective_time_zone) is sent */
            digest: boolean;
            /** @description Whether the member has a calendar feed link (the link itself is shown once) */
            calendar_link: boolean;
        };
        /**
         * @example {
         *       "data": {
         *         "time_zone": "Europe/Paris",
         *         "effective_time_zone": "Europe/Paris",
         *         "digest": true,
         *         "calendar_link": false
         *       }
         *     }
         */
        MemberSettingsEnvelope: {
            data: components["schemas"]["MemberSettings"];
        };
        /**
         * @example {
         *       "time_zone": "Europe/Paris",
         *       "digest": true
         *     }
         */
        PatchMemberSettings: {
            /** @description An IANA time zone name (Europe/Paris, America/New_York, UTC); null: the server's */
            time_zone?: string | null;
            /** @description false turns the morning digest off */
            digest?: boolean;
        };
        /**
         * @example {
         *       "url": "https://dossier.example.com/calendar/q3V8Y1m0bKf2XcJ5dN7rT9wZ4hL6pA8sE1uG3iO5kM0.ics"
         *     }
         */
        CalendarLink: {
            /**
             * @description <base>/calendar/<token>.ics: the member's private feed of open tasks with a due date; shown once; a new link voids the old one
             * @example https://dossier.example.com/calendar/q3V8Y1m0bKf2XcJ5dN7rT9wZ4hL6pA8sE1uG3iO5kM0.ics
             */
            url: string;
        };
        /**
         * @example {
         *       "data": {
         *         "url": "https://dossier.example.com/calendar/q3V8Y1m0bKf2XcJ5dN7rT9wZ4hL6pA8sE1uG3iO5kM0.ics"
         *       }
         *     }
         */
        CalendarLinkEnvelope: {
            data: components["schemas"]["CalendarLink"];
        };
        /**
         * @example {
         *       "status": "ok"
         *     }
         */
        Health: {
            /** @constant */
            status: "ok";
        };
        /**
         * @example {
         *       "status": "unavailable"
         *     }
         * @example {
         *       "status": "storage_unavailable"
         *     }
         */
        HealthUnavailable: {
            /** @enum {string} */
            status: "unavailable" | "storage_unavailable";
        };
    };
    responses: {
        /** @description Forbidden: `csrf_failed`: A change authenticated by the session cookie without an X-CSRF-Token equal to the session's, or with an Origin that is not this server's. `forbidden`: The key or the member's role lacks a scope this operation requires, or the change gives a role or a setup link beyond what the caller holds. */
        CsrfFailedOrForbidden: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @enum {unknown} */
                        code: "csrf_failed" | "forbidden";
                        message: string;
                    };
                };
            };
        };
        /** @description Gone: `cursor_expired`: The `after` event is unknown, another organization's, or older than the retention: start again without `after`. */
        CursorExpired: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "cursor_expired";
                        message: string;
                    };
                };
            };
        };
        /** @description Conflict: `delivery_not_failed`: Only a failed delivery can be retried. `idempotency_key_in_use`: A request with this Idempotency-Key is still running. */
        DeliveryNotFailedOrIdempotencyKeyInUse: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @enum {unknown} */
                        code: "delivery_not_failed" | "idempotency_key_in_use";
                        message: string;
                    };
                };
            };
        };
        /** @description Conflict: `duplicate_contact`: Another contact of the organization has this email (compared case-insensitively). `idempotency_key_in_use`: A request with this Idempotency-Key is still running. */
        DuplicateContactOrIdempotencyKeyInUse: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @enum {unknown} */
                        code: "duplicate_contact" | "idempotency_key_in_use";
                        message: string;
                    };
                };
            };
        };
        /** @description Conflict: `duplicate_member`: A member of the installation already has this email (compared case-insensitively). */
        DuplicateMember: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "duplicate_member";
                        message: string;
                    };
                };
            };
        };
        /** @description Conflict: `duplicate_member`: A member of the installation already has this email (compared case-insensitively). */
        DuplicateMemberNoKey: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "duplicate_member";
                        message: string;
                    };
                };
            };
        };
        /** @description Content Too Large: `file_too_large`: A CV over 10 MB (10,485,760 bytes), or a multipart body over 11 MB. */
        FileTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "file_too_large";
                        message: string;
                    };
                };
            };
        };
        /** @description Conflict: `idempotency_key_in_use`: A request with this Idempotency-Key is still running. */
        IdempotencyKeyInUse: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "idempotency_key_in_use";
                        message: string;
                    };
                };
            };
        };
        /** @description Conflict: `idempotency_key_in_use`: A request with this Idempotency-Key is still running. */
        IdempotencyKeyInUseNoKey: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "idempotency_key_in_use";
                        message: string;
                    };
                };
            };
        };
        /** @description Unprocessable Content: `idempotency_key_reused`: This Idempotency-Key was used with another method, path or body. */
        IdempotencyKeyReused: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "idempotency_key_reused";
                        message: string;
                    };
                };
            };
        };
        /** @description Unprocessable Content: `idempotency_key_reused`: This Idempotency-Key was used with another method, path or body. */
        IdempotencyKeyReusedNoKey: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "idempotency_key_reused";
                        message: string;
                    };
                };
            };
        };
        /** @description Conflict: `import_not_revertable`: Only a succeeded import that is not a dry run can be reverted: this one is queued, running, failed, a dry run, or reverted already. `idempotency_key_in_use`: A request with this Idempotency-Key is still running. */
        ImportNotRevertableOrIdempotencyKeyInUse: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @enum {unknown} */
                        code: "import_not_revertable" | "idempotency_key_in_use";
                        message: string;
                    };
                };
            };
        };
        /** @description Insufficient Storage: `insufficient_storage`: There is no space left to store the CV; nothing of the request was kept. */
        InsufficientStorage: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "insufficient_storage";
                        message: string;
                    };
                };
            };
        };
        /** @description Internal Server Error: `internal`: An unexpected server error; the details are logged with the request id. Safe to retry. */
        Internal: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                /** @description Requests allowed per sliding 60 s window for the organization */
                "X-RateLimit-Limit"?: number;
                /** @description Requests left in the window after this one */
                "X-RateLimit-Remaining"?: number;
                /** @description Seconds until a counted request leaves the window (0 when none is counted) */
                "X-RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "internal";
                        message: string;
                    };
                };
            };
        };
        /** @description Internal Server Error: `internal`: An unexpected server error; the details are logged with the request id. Safe to retry. */
        InternalNoKey: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "internal";
                        message: string;
                    };
                };
            };
        };
        /** @description Bad Request: `invalid_body`: A missing or unknown field, a value of the wrong type or out of its limits, malformed JSON, a JSON endpoint called without Content-Type: application/json, or an invalid query parameter. */
        InvalidBody: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "invalid_body";
                        message: string;
                    };
                };
            };
        };
        /** @description Bad Request: `invalid_body`: A missing or unknown field, a value of the wrong type or out of its limits, malformed JSON, a JSON endpoint called without Content-Type: application/json, or an invalid query parameter. */
        InvalidBodyNoKey: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "invalid_body";
                        message: string;
                    };
                };
            };
        };
        /** @description Bad Request: `invalid_body`: A missing or unknown field, a value of the wrong type or out of its limits, malformed JSON, a JSON endpoint called without Content-Type: application/json, or an invalid query parameter. `invalid_setup_link`: A setup link that is unknown, used, expired, replaced by a newer one, or a disabled member's. */
        InvalidBodyOrInvalidSetupLinkNoKey: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @enum {unknown} */
                        code: "invalid_body" | "invalid_setup_link";
                        message: string;
                    };
                };
            };
        };
        /** @description Unauthorized: `invalid_credentials`: A wrong email or password (the same answer, in about the same time, for an unknown email). */
        InvalidCredentialsNoKey: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                /** @description `Bearer`: send an API key as Authorization: Bearer svc_live_... */
                "WWW-Authenticate": "Bearer";
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "invalid_credentials";
                        message: string;
                    };
                };
            };
        };
        /** @description Conflict: `last_owner`: The change would leave the organization without an owner. */
        LastOwner: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "last_owner";
                        message: string;
                    };
                };
            };
        };
        /** @description Conflict: `last_owner`: The change would leave the organization without an owner. `idempotency_key_in_use`: A request with this Idempotency-Key is still running. */
        LastOwnerOrIdempotencyKeyInUse: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @enum {unknown} */
                        code: "last_owner" | "idempotency_key_in_use";
                        message: string;
                    };
                };
            };
        };
        /** @description Conflict: `last_stage`: A flow keeps at least one stage. `stage_not_empty`: A stage that holds dossiers (archived ones too) cannot be deleted. */
        LastStageOrStageNotEmpty: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @enum {unknown} */
                        code: "last_stage" | "stage_not_empty";
                        message: string;
                    };
                };
            };
        };
        /** @description Not Found: `not_found`: A path id that is malformed, unknown or another organization's; or, where stated, an id in the body that is not the organization's. */
        NotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "not_found";
                        message: string;
                    };
                };
            };
        };
        /** @description Not Found: `not_found`: A path id that is malformed, unknown or another organization's; or, where stated, an id in the body that is not the organization's. */
        NotFoundNoKey: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "not_found";
                        message: string;
                    };
                };
            };
        };
        /** @description Content Too Large: `payload_too_large`: A JSON body over 1 MB (1,048,576 bytes); a CSV import over 50 MB or 200,000 rows. */
        PayloadTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "payload_too_large";
                        message: string;
                    };
                };
            };
        };
        /** @description Content Too Large: `payload_too_large`: A JSON body over 1 MB (1,048,576 bytes); a CSV import over 50 MB or 200,000 rows. */
        PayloadTooLargeNoKey: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "payload_too_large";
                        message: string;
                    };
                };
            };
        };
        /** @description Content Too Large: `payload_too_large`: A JSON body over 1 MB (1,048,576 bytes); a CSV import over 50 MB or 200,000 rows. `file_too_large`: A CV over 10 MB (10,485,760 bytes), or a multipart body over 11 MB. */
        PayloadTooLargeOrFileTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @enum {unknown} */
                        code: "payload_too_large" | "file_too_large";
                        message: string;
                    };
                };
            };
        };
        /** @description Payment Required: `plan_required`: The organization is on the Free or Pro plan; the API requires Growth. */
        PlanRequired: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "plan_required";
                        message: string;
                    };
                };
            };
        };
        /** @description Payment Required: `plan_required`: The organization is on the Free or Pro plan; the API requires Growth. */
        PlanRequiredNoKey: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "plan_required";
                        message: string;
                    };
                };
            };
        };
        /** @description Precondition Failed: `precondition_failed`: If-Match does not match the record's current ETag: someone changed it first; nothing was changed. */
        PreconditionFailed: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "precondition_failed";
                        message: string;
                    };
                };
            };
        };
        /** @description Too Many Requests: `rate_limited`: The organization's rate limit (requests per sliding 60 s) is used up; Retry-After says when to try again. */
        RateLimited: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "rate_limited";
                        message: string;
                    };
                };
            };
        };
        /** @description Too Many Requests: `rate_limited`: The organization's rate limit (requests per sliding 60 s) is used up; Retry-After says when to try again. */
        RateLimitedNoKey: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "rate_limited";
                        message: string;
                    };
                };
            };
        };
        /** @description Request Timeout: `request_timeout`: The request body stalled for 30 s (from the headers or from its last byte), or came slower than 10 KB/s on average after its first 30 s; the connection is closed. */
        RequestTimeout: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "request_timeout";
                        message: string;
                    };
                };
            };
        };
        /** @description Request Timeout: `request_timeout`: The request body stalled for 30 s (from the headers or from its last byte), or came slower than 10 KB/s on average after its first 30 s; the connection is closed. */
        RequestTimeoutNoKey: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "request_timeout";
                        message: string;
                    };
                };
            };
        };
        /** @description Service Unavailable: `server_busy`: Too many password checks are waiting, or the bodies of the requests in flight already hold the server's memory for bodies (DOSSIER_BODY_MEMORY); Retry-After says when to try again. `storage_unavailable`: A write to the database failed (disk full, I/O error): nothing of the request was kept, and the server refuses every change until it is restarted; reads still work. Or, with CVs on S3-compatible storage, the bucket could not be reached: nothing of the request was kept, and later requests may succeed. */
        ServerBusyOrStorageUnavailable: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @enum {unknown} */
                        code: "server_busy" | "storage_unavailable";
                        message: string;
                    };
                };
            };
        };
        /** @description Service Unavailable: `storage_unavailable`: A write to the database failed (disk full, I/O error): nothing of the request was kept, and the server refuses every change until it is restarted; reads still work. Or, with CVs on S3-compatible storage, the bucket could not be reached: nothing of the request was kept, and later requests may succeed. */
        StorageUnavailable: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "storage_unavailable";
                        message: string;
                    };
                };
            };
        };
        /** @description Service Unavailable: `storage_unavailable`: A write to the database failed (disk full, I/O error): nothing of the request was kept, and the server refuses every change until it is restarted; reads still work. Or, with CVs on S3-compatible storage, the bucket could not be reached: nothing of the request was kept, and later requests may succeed. */
        StorageUnavailableNoKey: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                /** @description With server_busy: whole seconds to wait */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "storage_unavailable";
                        message: string;
                    };
                };
            };
        };
        /** @description Service Unavailable: `storage_unavailable`: A write to the database failed (disk full, I/O error): nothing of the request was kept, and the server refuses every change until it is restarted; reads still work. Or, with CVs on S3-compatible storage, the bucket could not be reached: nothing of the request was kept, and later requests may succeed. `server_busy`: Too many password checks are waiting, or the bodies of the requests in flight already hold the server's memory for bodies (DOSSIER_BODY_MEMORY); Retry-After says when to try again. */
        StorageUnavailableOrServerBusyNoKey: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                /** @description With server_busy: whole seconds to wait */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @enum {unknown} */
                        code: "storage_unavailable" | "server_busy";
                        message: string;
                    };
                };
            };
        };
        /** @description Unauthorized: `unauthorized`: A missing, malformed, unknown, revoked or expired API key, or, without an Authorization header, a session cookie that is unknown, ended or a disabled member's (the message does not say which). */
        Unauthorized: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                /** @description `Bearer`: send an API key as Authorization: Bearer svc_live_... */
                "WWW-Authenticate": "Bearer";
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "unauthorized";
                        message: string;
                    };
                };
            };
        };
        /** @description Unsupported Media Type: `unsupported_media_type`: A Content-Type that is neither multipart/form-data nor application/pdf. */
        UnsupportedMediaType: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "unsupported_media_type";
                        message: string;
                    };
                };
            };
        };
        /** @description Unsupported Media Type: `unsupported_media_type`: A Content-Type that is neither multipart/form-data nor application/pdf. */
        UnsupportedMediaTypeNoKey: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error: {
                        /** @constant */
                        code: "unsupported_media_type";
                        message: string;
                    };
                };
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description The request's id: the client's X-Request-Id when it is 1 to 100 of A-Z a-z 0-9 . _ : -, else a generated one. Quote it when reporting a problem */
        "X-Request-Id": string;
        /** @description Requests allowed per sliding 60 s window for the organization */
        "X-RateLimit-Limit": number;
        /** @description Requests left in the window after this one */
        "X-RateLimit-Remaining": number;
        /** @description Seconds until a counted request leaves the window (0 when none is counted) */
        "X-RateLimit-Reset": number;
        /** @description Whole seconds to wait before the next request is accepted */
        "Retry-After": number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The service is up and its database answers a query */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok"
                     *     }
                     */
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description `unavailable`: the service is up but its database does not answer (e.g. the file is gone or unreadable). `storage_unavailable`: a write to the database failed (disk full, I/O error); the service refuses changes and still answers reads until it is restarted (the reason is in its log) */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["HealthUnavailable"];
                };
            };
        };
    };
    exportDossiers: {
        parameters: {
            query?: {
                /** @description Only dossiers of this type */
                type?: "candidate" | "sales";
                /** @description Only dossiers in this status; without it, archived dossiers are left out */
                status?: "active" | "won" | "lost" | "archived";
                /** @description Only dossiers currently in this stage; a non-uuid is 400 */
                stage_id?: string;
                /** @description true: only active dossiers whose stage_due_at has passed; false: all others */
                overdue?: boolean;
                /** @description Only dossiers assigned to this user; a non-uuid is 400 */
                assigned_to?: string;
                /** @description Only dossiers in this flow; a non-uuid is 400 */
                flow_id?: string;
                /** @description Case-insensitive substring of name, email or company */
                q?: string;
                /** @description Only dossiers linked to this contact, as primary or not; a non-uuid is 400 */
                contact_id?: string;
                /** @description Only rows whose updated_at is at or after this ISO 8601 timestamp (e.g. 2026-11-22T04:21:26.123Z; an offset's `+` is sent as %2B); anything else is 400 */
                updated_since?: string;
                /** @description metadata[key]=value: only rows whose metadata holds exactly this value under this key; several filters AND together */
                metadata?: {
                    [key: string]: string;
                };
                /** @description Only dossiers with an open task (C22) assigned to this member; a non-uuid is 400 */
                task_assigned_to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every dossier that matches the filters, in the list's order, as a CSV file (RFC 4180, UTF-8 with a BOM, CRLF line ends, a header row of the field names); streamed */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description attachment; filename="dossiers-<yyyy-mm-dd>.csv" (the date in UTC) */
                    "Content-Disposition": string;
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": components["schemas"]["CsvFile"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    exportContacts: {
        parameters: {
            query?: {
                /** @description Repeat to combine: contacts holding any of the kinds */
                kind?: components["schemas"]["ContactKind"][];
                /** @description in_pool: pool_added_at <= now < pool_expires_at (a missing date is open-ended); expired: pool_expires_at <= now */
                pool?: "in_pool" | "expired";
                /** @description Case-insensitive substring of full_name, email, company or role */
                search?: string;
                /** @description Only rows whose updated_at is at or after this ISO 8601 timestamp (e.g. 2026-11-22T04:21:26.123Z; an offset's `+` is sent as %2B); anything else is 400 */
                updated_since?: string;
                /** @description metadata[key]=value: only rows whose metadata holds exactly this value under this key; several filters AND together */
                metadata?: {
                    [key: string]: string;
                };
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every contact that matches the filters, in the list's order, as a CSV file (RFC 4180, UTF-8 with a BOM, CRLF line ends, a header row of the field names); streamed */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description attachment; filename="contacts-<yyyy-mm-dd>.csv" (the date in UTC) */
                    "Content-Disposition": string;
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": components["schemas"]["CsvFile"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    listDossiers: {
        parameters: {
            query?: {
                /** @description Only dossiers of this type */
                type?: "candidate" | "sales";
                /** @description Only dossiers in this status; without it, archived dossiers are left out */
                status?: "active" | "won" | "lost" | "archived";
                /** @description Only dossiers currently in this stage; a non-uuid is 400 */
                stage_id?: string;
                /** @description true: only active dossiers whose stage_due_at has passed; false: all others */
                overdue?: boolean;
                /** @description Only dossiers assigned to this user; a non-uuid is 400 */
                assigned_to?: string;
                /** @description Only dossiers in this flow; a non-uuid is 400 */
                flow_id?: string;
                /** @description Case-insensitive substring of name, email or company */
                q?: string;
                /** @description Only dossiers linked to this contact, as primary or not; a non-uuid is 400 */
                contact_id?: string;
                /** @description Only rows whose updated_at is at or after this ISO 8601 timestamp (e.g. 2026-11-22T04:21:26.123Z; an offset's `+` is sent as %2B); anything else is 400 */
                updated_since?: string;
                /** @description metadata[key]=value: only rows whose metadata holds exactly this value under this key; several filters AND together */
                metadata?: {
                    [key: string]: string;
                };
                /** @description Only dossiers with an open task (C22) assigned to this member; a non-uuid is 400 */
                task_assigned_to?: string;
                /** @description 1-based page number; a page past the end answers data: [] with the right total */
                page?: number;
                /** @description Page size, 1 to 100 */
                per_page?: number;
                /** @description For a sync: the previous page's `meta.next_after`. The page after that item in the list's order, filters kept: nothing skipped or repeated while others write (a task moves with its due_at). Not with `page` (400); a bad cursor is 400. See the introduction, Pagination */
                after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the organization's dossiers that match every filter given (archived ones only with status=archived), with the total across all pages */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DossierList"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    createDossier: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (else 400 invalid_body), unique per request, kept 24 hours for the key or member that sent it. The first answer (except 401, 402, 403, 429 and 5xx) is stored with the request's effect; the same key with the same method, path and body (byte for byte) answers it again with Idempotent-Replayed: true and changes nothing; with another method, path or body: 422 idempotency_key_reused; while the first is running: 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "type": "sales",
                 *       "name": "Acme renewal 2027",
                 *       "email": "jane.doe@acme.example",
                 *       "company": "Acme",
                 *       "contact_person": "Jane Doe",
                 *       "deal_size": 12500.5,
                 *       "deal_currency": "EUR"
                 *     }
                 */
                "application/json": components["schemas"]["CreateDossier"];
                /**
                 * @example {
                 *       "type": "candidate",
                 *       "name": "Ada Lovelace",
                 *       "email": "ada@example.org",
                 *       "role": "Software Engineer",
                 *       "intake_notes": "Referred by Grace.",
                 *       "cv": "%PDF-1.7 … (the bytes of the PDF file, at most 10 MB)"
                 *     }
                 */
                "multipart/form-data": components["schemas"]["CreateDossierForm"];
            };
        };
        responses: {
            /** @description The dossier was created (with its CV, for a multipart body) in the flow's first stage; the answer is the whole new dossier. A dossier.created event is recorded */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description `true` on an answer given again for a repeated Idempotency-Key; absent on the first answer (C16) */
                    "Idempotent-Replayed"?: "true";
                    /** @description The created resource's URL, under /api/v1 (e.g. /api/v1/dossiers/{id}) */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DossierEnvelope"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyKeyInUse"];
            413: components["responses"]["PayloadTooLargeOrFileTooLarge"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServerBusyOrStorageUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getDossier: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: when it is still the current one, 304 with no body */
                "If-None-Match"?: string;
            };
            path: {
                /** @description The dossier's id (archived dossiers too). A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dossier, archived or not */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description The record's strong ETag, over its whole representation: send it back in If-Match to change the record only if nobody changed it since (C16) */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DossierEnvelope"];
                };
            };
            /** @description Not Modified: If-None-Match holds the current ETag; no body */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description The record's strong ETag, over its whole representation: send it back in If-Match to change the record only if nobody changed it since (C16) */
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    archiveDossier: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag the change is based on (or `*`): when the record's current ETag differs, 412 precondition_failed and nothing changes */
                "If-Match"?: string;
            };
            path: {
                /** @description The dossier's id. A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dossier is archived (soft delete: it can still be read); a dossier.deleted event is recorded */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArchivedDossierEnvelope"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["StorageUnavailable"];
        };
    };
    updateDossier: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (else 400 invalid_body), unique per request, kept 24 hours for the key or member that sent it. The first answer (except 401, 402, 403, 429 and 5xx) is stored with the request's effect; the same key with the same method, path and body (byte for byte) answers it again with Idempotent-Replayed: true and changes nothing; with another method, path or body: 422 idempotency_key_reused; while the first is running: 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
                /** @description The ETag the change is based on (or `*`): when the record's current ETag differs, 412 precondition_failed and nothing changes */
                "If-Match"?: string;
            };
            path: {
                /** @description The dossier's id (archived dossiers too). A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "status": "won",
                 *       "current_stage_id": "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
                 *       "assigned_to": null
                 *     }
                 */
                "application/json": components["schemas"]["PatchDossier"];
            };
        };
        responses: {
            /** @description The dossier after the change (unchanged, with its old updated_at, when the body changes nothing) */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description The record's strong ETag, over its whole representation: send it back in If-Match to change the record only if nobody changed it since (C16) */
                    ETag: string;
                    /** @description `true` on an answer given again for a repeated Idempotency-Key; absent on the first answer (C16) */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DossierEnvelope"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyKeyInUse"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServerBusyOrStorageUnavailable"];
        };
    };
    downloadCv: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dossier's id. A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The CV last attached to the dossier: the PDF's bytes exactly as uploaded, as an attachment named "cv.pdf" */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description Always this value */
                    "Content-Disposition": "attachment; filename=\"cv.pdf\"";
                    /** @description Always this value: no cache may keep a CV */
                    "Cache-Control": "private, no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": components["schemas"]["PdfFile"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["StorageUnavailable"];
        };
    };
    attachCv: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (else 400 invalid_body), unique per request, kept 24 hours for the key or member that sent it. The first answer (except 401, 402, 403, 429 and 5xx) is stored with the request's effect; the same key with the same method, path and body (byte for byte) answers it again with Idempotent-Replayed: true and changes nothing; with another method, path or body: 422 idempotency_key_reused; while the first is running: 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
                /** @description The ETag the change is based on (or `*`): when the record's current ETag differs, 412 precondition_failed and nothing changes */
                "If-Match"?: string;
            };
            path: {
                /** @description The dossier's id (archived dossiers too). A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "cv": "%PDF-1.7 … (the bytes of the PDF file, at most 10 MB)"
                 *     }
                 */
                "multipart/form-data": components["schemas"]["CvForm"];
                /** @example %PDF-1.7 … (the bytes of the PDF file, at most 10 MB) */
                "application/pdf": components["schemas"]["PdfFile"];
            };
        };
        responses: {
            /** @description The CV is stored, replacing any earlier one; the answer is the whole dossier with its cv_url. A dossier.updated event is recorded */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description The record's strong ETag, over its whole representation: send it back in If-Match to change the record only if nobody changed it since (C16) */
                    ETag: string;
                    /** @description `true` on an answer given again for a repeated Idempotency-Key; absent on the first answer (C16) */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DossierEnvelope"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyKeyInUse"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["FileTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServerBusyOrStorageUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getDossierHistory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dossier's id (archived dossiers too). A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dossier's history, oldest first, and its stays in stages */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DossierHistory"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    listNotes: {
        parameters: {
            query?: {
                /** @description 1-based page number; a page past the end answers data: [] with the right total */
                page?: number;
                /** @description Page size, 1 to 100 */
                per_page?: number;
                /** @description For a sync: the previous page's `meta.next_after`. The page after that item in the list's order, filters kept: nothing skipped or repeated while others write (a task moves with its due_at). Not with `page` (400); a bad cursor is 400. See the introduction, Pagination */
                after?: string;
            };
            header?: never;
            path: {
                /** @description The dossier's id (archived dossiers too). A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the dossier's notes, oldest first, with the total across all pages */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoteList"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    createNote: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (else 400 invalid_body), unique per request, kept 24 hours for the key or member that sent it. The first answer (except 401, 402, 403, 429 and 5xx) is stored with the request's effect; the same key with the same method, path and body (byte for byte) answers it again with Idempotent-Replayed: true and changes nothing; with another method, path or body: 422 idempotency_key_reused; while the first is running: 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The dossier's id (archived dossiers too). A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "content": "Called back, wants a proposal by Friday.",
                 *       "is_internal": false
                 *     }
                 */
                "application/json": {
                    /** @description Not empty: 1 to 20,000 characters after trimming; stored as given */
                    content: string;
                    /**
                     * @description Internal notes are not shared
                     * @default true
                     */
                    is_internal?: boolean;
                };
            };
        };
        responses: {
            /** @description The note was added to the dossier; a note.created event is recorded */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description `true` on an answer given again for a repeated Idempotency-Key; absent on the first answer (C16) */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoteEnvelope"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyKeyInUse"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServerBusyOrStorageUnavailable"];
        };
    };
    listDossierContacts: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dossier's id. A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every contact linked to the dossier, the primary first, then oldest link first (not paginated: meta.per_page is the number of items) */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LinkedContactList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    linkContact: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (else 400 invalid_body), unique per request, kept 24 hours for the key or member that sent it. The first answer (except 401, 402, 403, 429 and 5xx) is stored with the request's effect; the same key with the same method, path and body (byte for byte) answers it again with Idempotent-Replayed: true and changes nothing; with another method, path or body: 422 idempotency_key_reused; while the first is running: 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The dossier's id. A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "contact_id": "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                 *       "role_on_dossier": "decision_maker",
                 *       "is_primary": true
                 *     }
                 */
                "application/json": components["schemas"]["CreateLink"];
            };
        };
        responses: {
            /** @description The contact was already linked: its role (and is_primary, when given) are updated */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description `true` on an answer given again for a repeated Idempotency-Key; absent on the first answer (C16) */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LinkEnvelope"];
                };
            };
            /** @description The contact is now linked to the dossier */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description `true` on an answer given again for a repeated Idempotency-Key; absent on the first answer (C16) */
                    "Idempotent-Replayed"?: "true";
                    /** @description The created resource's URL, under /api/v1 (e.g. /api/v1/dossiers/{id}) */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LinkEnvelope"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyKeyInUse"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServerBusyOrStorageUnavailable"];
        };
    };
    unlinkContact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dossier's id. A malformed or unknown id answers 404 not_found. */
                id: string;
                /** @description The linked contact's id. A malformed or unknown id answers 404 not_found. */
                contact_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The link is removed; the contact and the dossier are kept */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnlinkedEnvelope"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["StorageUnavailable"];
        };
    };
    listContacts: {
        parameters: {
            query?: {
                /** @description Repeat to combine: contacts holding any of the kinds */
                kind?: components["schemas"]["ContactKind"][];
                /** @description in_pool: pool_added_at <= now < pool_expires_at (a missing date is open-ended); expired: pool_expires_at <= now */
                pool?: "in_pool" | "expired";
                /** @description Case-insensitive substring of full_name, email, company or role */
                search?: string;
                /** @description Only rows whose updated_at is at or after this ISO 8601 timestamp (e.g. 2026-11-22T04:21:26.123Z; an offset's `+` is sent as %2B); anything else is 400 */
                updated_since?: string;
                /** @description metadata[key]=value: only rows whose metadata holds exactly this value under this key; several filters AND together */
                metadata?: {
                    [key: string]: string;
                };
                /** @description 1-based page number; a page past the end answers data: [] with the right total */
                page?: number;
                /** @description Page size, 1 to 100 */
                per_page?: number;
                /** @description For a sync: the previous page's `meta.next_after`. The page after that item in the list's order, filters kept: nothing skipped or repeated while others write (a task moves with its due_at). Not with `page` (400); a bad cursor is 400. See the introduction, Pagination */
                after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the organization's contacts that match every filter given, with the total across all pages */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactList"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    createContact: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (else 400 invalid_body), unique per request, kept 24 hours for the key or member that sent it. The first answer (except 401, 402, 403, 429 and 5xx) is stored with the request's effect; the same key with the same method, path and body (byte for byte) answers it again with Idempotent-Replayed: true and changes nothing; with another method, path or body: 422 idempotency_key_reused; while the first is running: 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "full_name": "Jane Doe",
                 *       "email": "jane.doe@acme.example",
                 *       "company": "Acme",
                 *       "kind": [
                 *         "prospect"
                 *       ],
                 *       "pool_expires_at": "2027-06-30T00:00:00.000Z"
                 *     }
                 */
                "application/json": components["schemas"]["CreateContact"];
            };
        };
        responses: {
            /** @description The contact was created; dossier_count is 0 */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description `true` on an answer given again for a repeated Idempotency-Key; absent on the first answer (C16) */
                    "Idempotent-Replayed"?: "true";
                    /** @description The created resource's URL, under /api/v1 (e.g. /api/v1/dossiers/{id}) */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactEnvelope"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["DuplicateContactOrIdempotencyKeyInUse"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServerBusyOrStorageUnavailable"];
        };
    };
    getContact: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: when it is still the current one, 304 with no body */
                "If-None-Match"?: string;
            };
            path: {
                /** @description The contact's id. A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The contact, with its kinds and the number of dossiers linked to it */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description The record's strong ETag, over its whole representation: send it back in If-Match to change the record only if nobody changed it since (C16) */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactEnvelope"];
                };
            };
            /** @description Not Modified: If-None-Match holds the current ETag; no body */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description The record's strong ETag, over its whole representation: send it back in If-Match to change the record only if nobody changed it since (C16) */
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    deleteContact: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag the change is based on (or `*`): when the record's current ETag differs, 412 precondition_failed and nothing changes */
                "If-Match"?: string;
            };
            path: {
                /** @description The contact's id. A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The contact is deleted for good; its links are removed and the linked dossiers kept */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedContactEnvelope"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["StorageUnavailable"];
        };
    };
    updateContact: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (else 400 invalid_body), unique per request, kept 24 hours for the key or member that sent it. The first answer (except 401, 402, 403, 429 and 5xx) is stored with the request's effect; the same key with the same method, path and body (byte for byte) answers it again with Idempotent-Replayed: true and changes nothing; with another method, path or body: 422 idempotency_key_reused; while the first is running: 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
                /** @description The ETag the change is based on (or `*`): when the record's current ETag differs, 412 precondition_failed and nothing changes */
                "If-Match"?: string;
            };
            path: {
                /** @description The contact's id. A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "role": "CFO",
                 *       "kind": [
                 *         "client"
                 *       ],
                 *       "notes": null
                 *     }
                 */
                "application/json": components["schemas"]["PatchContact"];
            };
        };
        responses: {
            /** @description The contact after the change */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description The record's strong ETag, over its whole representation: send it back in If-Match to change the record only if nobody changed it since (C16) */
                    ETag: string;
                    /** @description `true` on an answer given again for a repeated Idempotency-Key; absent on the first answer (C16) */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactEnvelope"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["DuplicateContactOrIdempotencyKeyInUse"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServerBusyOrStorageUnavailable"];
        };
    };
    listFlows: {
        parameters: {
            query?: {
                /** @description Only flows of this type */
                type?: "candidate" | "sales";
                /** @description 1-based page number; a page past the end answers data: [] with the right total */
                page?: number;
                /** @description Page size, 1 to 100 */
                per_page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the organization's flows, each with its stages sorted by position */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlowList"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    createFlow: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (else 400 invalid_body), unique per request, kept 24 hours for the key or member that sent it. The first answer (except 401, 402, 403, 429 and 5xx) is stored with the request's effect; the same key with the same method, path and body (byte for byte) answers it again with Idempotent-Replayed: true and changes nothing; with another method, path or body: 422 idempotency_key_reused; while the first is running: 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "type": "candidate",
                 *       "name": "Engineering hiring",
                 *       "is_default": false,
                 *       "stages": [
                 *         {
                 *           "name": "Applied",
                 *           "deadline_days": 3,
                 *           "win_probability": 10,
                 *           "color": "#90CAF9"
                 *         },
                 *         {
                 *           "name": "Hired"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["CreateFlow"];
            };
        };
        responses: {
            /** @description The flow was created, with its stages in the order given */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description `true` on an answer given again for a repeated Idempotency-Key; absent on the first answer (C16) */
                    "Idempotent-Replayed"?: "true";
                    /** @description The created resource's URL, under /api/v1 (e.g. /api/v1/dossiers/{id}) */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlowEnvelope"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyKeyInUse"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServerBusyOrStorageUnavailable"];
        };
    };
    patchFlow: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (else 400 invalid_body), unique per request, kept 24 hours for the key or member that sent it. The first answer (except 401, 402, 403, 429 and 5xx) is stored with the request's effect; the same key with the same method, path and body (byte for byte) answers it again with Idempotent-Replayed: true and changes nothing; with another method, path or body: 422 idempotency_key_reused; while the first is running: 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The flow's id. A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Engineering hiring 2027",
                 *       "is_default": true,
                 *       "overdue_tasks": false
                 *     }
                 */
                "application/json": components["schemas"]["PatchFlow"];
            };
        };
        responses: {
            /** @description The flow as it is now, with its stages */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description `true` on an answer given again for a repeated Idempotency-Key; absent on the first answer (C16) */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlowEnvelope"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyKeyInUse"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServerBusyOrStorageUnavailable"];
        };
    };
    listStages: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The flow's id. A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every stage of the flow, sorted by position (not paginated: meta.per_page is the number of stages) */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StageList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    createStage: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (else 400 invalid_body), unique per request, kept 24 hours for the key or member that sent it. The first answer (except 401, 402, 403, 429 and 5xx) is stored with the request's effect; the same key with the same method, path and body (byte for byte) answers it again with Idempotent-Replayed: true and changes nothing; with another method, path or body: 422 idempotency_key_reused; while the first is running: 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The flow's id. A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Technical test",
                 *       "deadline_days": 5,
                 *       "win_probability": 40,
                 *       "color": "#FFB74D",
                 *       "position": 3
                 *     }
                 */
                "application/json": components["schemas"]["CreateStage"];
            };
        };
        responses: {
            /** @description The stage was added to the flow */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description `true` on an answer given again for a repeated Idempotency-Key; absent on the first answer (C16) */
                    "Idempotent-Replayed"?: "true";
                    /** @description The created resource's URL, under /api/v1 (e.g. /api/v1/dossiers/{id}) */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StageEnvelope"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyKeyInUse"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServerBusyOrStorageUnavailable"];
        };
    };
    getFlowStats: {
        parameters: {
            query?: {
                /** @description Start of the period, ISO 8601 (default: 90 days before `to`); inclusive */
                from?: string;
                /** @description End of the period, ISO 8601 (default: now); inclusive */
                to?: string;
            };
            header?: never;
            path: {
                /** @description The flow's id. A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The flow's figures over the period */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlowStatsEnvelope"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    deleteStage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The stage's id. A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stage was deleted; the flow's other stages moved up to close the gap */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedStageEnvelope"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["LastStageOrStageNotEmpty"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["StorageUnavailable"];
        };
    };
    patchStage: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (else 400 invalid_body), unique per request, kept 24 hours for the key or member that sent it. The first answer (except 401, 402, 403, 429 and 5xx) is stored with the request's effect; the same key with the same method, path and body (byte for byte) answers it again with Idempotent-Replayed: true and changes nothing; with another method, path or body: 422 idempotency_key_reused; while the first is running: 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The stage's id. A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Phone screen",
                 *       "position": 1
                 *     }
                 */
                "application/json": components["schemas"]["PatchStage"];
            };
        };
        responses: {
            /** @description The stage as it is now */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description `true` on an answer given again for a repeated Idempotency-Key; absent on the first answer (C16) */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StageEnvelope"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyKeyInUse"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServerBusyOrStorageUnavailable"];
        };
    };
    getFlowIntake: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The flow's id. A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The flow's intake address */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IntakeAddressEnvelope"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    rotateFlowIntake: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (else 400 invalid_body), unique per request, kept 24 hours for the key or member that sent it. The first answer (except 401, 402, 403, 429 and 5xx) is stored with the request's effect; the same key with the same method, path and body (byte for byte) answers it again with Idempotent-Replayed: true and changes nothing; with another method, path or body: 422 idempotency_key_reused; while the first is running: 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The flow's id. A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The flow's new intake address */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description `true` on an answer given again for a repeated Idempotency-Key; absent on the first answer (C16) */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IntakeAddressEnvelope"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["IdempotencyKeyInUse"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["StorageUnavailable"];
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description An event id (a previous answer's `meta.next_after`): only the events recorded after it. An id that is unknown, another organization's, or older than the retention answers 410 cursor_expired */
                after?: string;
                /** @description Only events of these types; may repeat (any of them); an unknown type is 400 */
                type?: components["schemas"]["EventType"][];
                /** @description Only this dossier's own events and the note.created of its notes; a non-uuid is 400 */
                dossier_id?: string;
                /** @description How many events at most, 1 to 100 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Up to `limit` events after `after`, oldest first, and where to read on */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventFeed"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            410: components["responses"]["CursorExpired"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The event's id (evt_...). A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event, as its webhook body */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventEnvelope"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    listKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every key of the organization: prefix, scopes, expiry, revocation and last use */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    createKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "scopes": [
                 *         "dossiers:read",
                 *         "dossiers:write"
                 *       ],
                 *       "name": "Website form",
                 *       "expires_at": "2027-12-31T23:59:59.000Z"
                 *     }
                 */
                "application/json": components["schemas"]["CreateKey"];
            };
        };
        responses: {
            /** @description The key was created; `key` is shown this once only */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description The created resource's URL, under /api/v1 (e.g. /api/v1/dossiers/{id}) */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedKeyEnvelope"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServerBusyOrStorageUnavailable"];
        };
    };
    revokeKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The key's id. A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key as it is now, revoked */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyEnvelope"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["StorageUnavailable"];
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The organization's webhook endpoint */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointEnvelope"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    setWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://hooks.example.com/dossier"
                 *     }
                 */
                "application/json": components["schemas"]["SetWebhookEndpoint"];
            };
        };
        responses: {
            /** @description The endpoint is set and enabled; `secret` is shown this once only */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecretEnvelope"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServerBusyOrStorageUnavailable"];
        };
    };
    removeWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No endpoint is set any more */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RemovedWebhookEndpointEnvelope"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["StorageUnavailable"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The secret was replaced; `secret` is shown this once only */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotatedWebhookSecretEnvelope"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["StorageUnavailable"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Only deliveries in this state */
                status?: "pending" | "succeeded" | "failed" | "skipped";
                /** @description Only events of this type */
                type?: "dossier.created" | "dossier.updated" | "dossier.stage_changed" | "dossier.deleted" | "note.created";
                /** @description 1-based page number; a page past the end answers data: [] with the right total */
                page?: number;
                /** @description Page size, 1 to 100 */
                per_page?: number;
                /** @description For a sync: the previous page's `meta.next_after`. The page after that item in the list's order, filters kept: nothing skipped or repeated while others write (a task moves with its due_at). Not with `page` (400); a bad cursor is 400. See the introduction, Pagination */
                after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the organization's delivery log, newest first, with the total across all pages */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The event's id (evt_...). A malformed or unknown id answers 404 not_found. */
                event_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery, with every attempt (time, status or error, duration, first 1 KB of the answer) */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryWithAttemptsEnvelope"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    retryWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (else 400 invalid_body), unique per request, kept 24 hours for the key or member that sent it. The first answer (except 401, 402, 403, 429 and 5xx) is stored with the request's effect; the same key with the same method, path and body (byte for byte) answers it again with Idempotent-Replayed: true and changes nothing; with another method, path or body: 422 idempotency_key_reused; while the first is running: 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The event's id (evt_...). A malformed or unknown id answers 404 not_found. */
                event_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery, pending again */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description `true` on an answer given again for a repeated Idempotency-Key; absent on the first answer (C16) */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryWithAttemptsEnvelope"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["DeliveryNotFailedOrIdempotencyKeyInUse"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["StorageUnavailable"];
        };
    };
    listImports: {
        parameters: {
            query?: {
                /** @description 1-based page number; a page past the end answers data: [] with the right total */
                page?: number;
                /** @description Page size, 1 to 100 */
                per_page?: number;
                /** @description For a sync: the previous page's `meta.next_after`. The page after that item in the list's order, filters kept: nothing skipped or repeated while others write (a task moves with its due_at). Not with `page` (400); a bad cursor is 400. See the introduction, Pagination */
                after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the organization's imports, newest first, with the total across all pages */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportList"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    createImport: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (else 400 invalid_body), unique per request, kept 24 hours for the key or member that sent it. The first answer (except 401, 402, 403, 429 and 5xx) is stored with the request's effect; the same key with the same method, path and body (byte for byte) answers it again with Idempotent-Replayed: true and changes nothing; with another method, path or body: 422 idempotency_key_reused; while the first is running: 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "file": "full_name,Email\r\nJane Doe,jane@acme.example\r\n",
                 *       "resource": "contacts",
                 *       "mapping": "{\"full_name\":\"full_name\",\"Email\":\"email\"}",
                 *       "mode": "upsert"
                 *     }
                 */
                "multipart/form-data": components["schemas"]["ImportForm"];
            };
        };
        responses: {
            /** @description The file is accepted and the import queued; it runs in the background (GET /imports/{id} shows its progress) */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description `true` on an answer given again for a repeated Idempotency-Key; absent on the first answer (C16) */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportEnvelope"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyKeyInUse"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServerBusyOrStorageUnavailable"];
        };
    };
    getImport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The import's id. A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The import, with its progress so far */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportEnvelope"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    revertImport: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (else 400 invalid_body), unique per request, kept 24 hours for the key or member that sent it. The first answer (except 401, 402, 403, 429 and 5xx) is stored with the request's effect; the same key with the same method, path and body (byte for byte) answers it again with Idempotent-Replayed: true and changes nothing; with another method, path or body: 422 idempotency_key_reused; while the first is running: 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The import's id. A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The import is reverted; `revert` counts the rows undone and those left as they were */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description `true` on an answer given again for a repeated Idempotency-Key; absent on the first answer (C16) */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportEnvelope"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["ImportNotRevertableOrIdempotencyKeyInUse"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["StorageUnavailable"];
        };
    };
    listMembers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every member of the organization, disabled ones included */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    createMember: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ada@example.com",
                 *       "name": "Ada Lovelace",
                 *       "role": "member"
                 *     }
                 */
                "application/json": components["schemas"]["CreateMember"];
            };
        };
        responses: {
            /** @description The member was added, with no password yet: its setup_url lets it choose one */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description The created resource's URL, under /api/v1 (e.g. /api/v1/dossiers/{id}) */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NewMemberEnvelope"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["DuplicateMember"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServerBusyOrStorageUnavailable"];
        };
    };
    disableMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The member's id (another organization's is unknown: 404). A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The member, disabled (disabling again changes nothing) */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberEnvelope"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["LastOwner"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["StorageUnavailable"];
        };
    };
    updateMember: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (else 400 invalid_body), unique per request, kept 24 hours for the key or member that sent it. The first answer (except 401, 402, 403, 429 and 5xx) is stored with the request's effect; the same key with the same method, path and body (byte for byte) answers it again with Idempotent-Replayed: true and changes nothing; with another method, path or body: 422 idempotency_key_reused; while the first is running: 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The member's id (another organization's is unknown: 404). A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "role": "admin"
                 *     }
                 */
                "application/json": components["schemas"]["PatchMember"];
            };
        };
        responses: {
            /** @description The member as it now is */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description `true` on an answer given again for a repeated Idempotency-Key; absent on the first answer (C16) */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberEnvelope"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["LastOwnerOrIdempotencyKeyInUse"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServerBusyOrStorageUnavailable"];
        };
    };
    createSetupLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The member's id (another organization's is unknown: 404). A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new setup_url, shown once */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SetupLinkEnvelope"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["StorageUnavailable"];
        };
    };
    getSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session's member and its CSRF token */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionEnvelope"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    signIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ada@example.com",
                 *       "password": "correct horse battery staple"
                 *     }
                 */
                "application/json": components["schemas"]["SignIn"];
            };
        };
        responses: {
            /** @description You are signed in: Set-Cookie carries dossier_session (HttpOnly; SameSite=Lax; Path=/; Secure over HTTPS); the body the member and the CSRF token */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionEnvelope"];
                };
            };
            400: components["responses"]["InvalidBodyNoKey"];
            401: components["responses"]["InvalidCredentialsNoKey"];
            408: components["responses"]["RequestTimeoutNoKey"];
            413: components["responses"]["PayloadTooLargeNoKey"];
            429: components["responses"]["RateLimitedNoKey"];
            500: components["responses"]["InternalNoKey"];
            503: components["responses"]["StorageUnavailableOrServerBusyNoKey"];
        };
    };
    signOut: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session has ended; Set-Cookie clears dossier_session */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedOutEnvelope"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["StorageUnavailable"];
        };
    };
    listTasks: {
        parameters: {
            query?: {
                /** @description Only tasks assigned to this member (a uuid), or `me`: the signed-in member (a session only; with an API key 400) */
                assigned_to?: string;
                /** @description Only open or only done tasks */
                status?: "open" | "done";
                /** @description Only the tasks of this dossier; repeat it (at most 100 times) for the tasks of any of these dossiers, as the board does for its cards' task marks. A non-uuid, or more than 100, is 400 */
                dossier_id?: string[];
                /** @description Only the tasks of this contact; a non-uuid is 400 */
                contact_id?: string;
                /** @description Only tasks due before this ISO 8601 date-time (due_at < due_before); anything else is 400 */
                due_before?: string;
                /** @description Only tasks due at or after this ISO 8601 date-time (due_at >= due_after); anything else is 400 */
                due_after?: string;
                /** @description true: only open tasks whose due_at has passed; false: all others */
                overdue?: boolean;
                /** @description 1-based page number; a page past the end answers data: [] with the right total */
                page?: number;
                /** @description Page size, 1 to 100 */
                per_page?: number;
                /** @description For a sync: the previous page's `meta.next_after`. The page after that item in the list's order, filters kept: nothing skipped or repeated while others write (a task moves with its due_at). Not with `page` (400); a bad cursor is 400. See the introduction, Pagination */
                after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the organization's tasks that match every filter given, with the total across all pages */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskList"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    createTask: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (else 400 invalid_body), unique per request, kept 24 hours for the key or member that sent it. The first answer (except 401, 402, 403, 429 and 5xx) is stored with the request's effect; the same key with the same method, path and body (byte for byte) answers it again with Idempotent-Replayed: true and changes nothing; with another method, path or body: 422 idempotency_key_reused; while the first is running: 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "title": "Call Jane about the proposal",
                 *       "due_at": "2026-12-01T09:00:00.000Z",
                 *       "dossier_id": "0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d",
                 *       "assigned_to": "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
                 *     }
                 */
                "application/json": components["schemas"]["CreateTask"];
            };
        };
        responses: {
            /** @description The task was created; no webhook event is recorded */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description `true` on an answer given again for a repeated Idempotency-Key; absent on the first answer (C16) */
                    "Idempotent-Replayed"?: "true";
                    /** @description The created resource's URL, under /api/v1 (e.g. /api/v1/dossiers/{id}) */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskEnvelope"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyKeyInUse"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServerBusyOrStorageUnavailable"];
        };
    };
    getTask: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: when it is still the current one, 304 with no body */
                "If-None-Match"?: string;
            };
            path: {
                /** @description The task's id. A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The task, with its ETag (C16) */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description The record's strong ETag, over its whole representation: send it back in If-Match to change the record only if nobody changed it since (C16) */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskEnvelope"];
                };
            };
            /** @description Not Modified: If-None-Match holds the current ETag; no body */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description The record's strong ETag, over its whole representation: send it back in If-Match to change the record only if nobody changed it since (C16) */
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    deleteTask: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag the change is based on (or `*`): when the record's current ETag differs, 412 precondition_failed and nothing changes */
                "If-Match"?: string;
            };
            path: {
                /** @description The task's id. A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The task is deleted for good */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedTaskEnvelope"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["StorageUnavailable"];
        };
    };
    updateTask: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (else 400 invalid_body), unique per request, kept 24 hours for the key or member that sent it. The first answer (except 401, 402, 403, 429 and 5xx) is stored with the request's effect; the same key with the same method, path and body (byte for byte) answers it again with Idempotent-Replayed: true and changes nothing; with another method, path or body: 422 idempotency_key_reused; while the first is running: 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
                /** @description The ETag the change is based on (or `*`): when the record's current ETag differs, 412 precondition_failed and nothing changes */
                "If-Match"?: string;
            };
            path: {
                /** @description The task's id. A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "status": "done"
                 *     }
                 */
                "application/json": components["schemas"]["PatchTask"];
            };
        };
        responses: {
            /** @description The task after the change */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description The record's strong ETag, over its whole representation: send it back in If-Match to change the record only if nobody changed it since (C16) */
                    ETag: string;
                    /** @description `true` on an answer given again for a repeated Idempotency-Key; absent on the first answer (C16) */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskEnvelope"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyKeyInUse"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServerBusyOrStorageUnavailable"];
        };
    };
    listDossierTasks: {
        parameters: {
            query?: {
                /** @description Only open or only done tasks */
                status?: "open" | "done";
                /** @description 1-based page number; a page past the end answers data: [] with the right total */
                page?: number;
                /** @description Page size, 1 to 100 */
                per_page?: number;
                /** @description For a sync: the previous page's `meta.next_after`. The page after that item in the list's order, filters kept: nothing skipped or repeated while others write (a task moves with its due_at). Not with `page` (400); a bad cursor is 400. See the introduction, Pagination */
                after?: string;
            };
            header?: never;
            path: {
                /** @description The dossier's id (archived dossiers too). A malformed or unknown id answers 404 not_found. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the dossier's tasks, with the total across all pages */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskList"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    listMailLog: {
        parameters: {
            query?: {
                /** @description 1-based page number; a page past the end answers data: [] with the right total */
                page?: number;
                /** @description Page size, 1 to 100 */
                per_page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the organization's outgoing mail, newest first, with the total across all pages */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MailLogList"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getMySettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The member's time zone (and the one in use) and whether the digest is sent */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberSettingsEnvelope"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    updateMySettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "time_zone": "Europe/Paris",
                 *       "digest": true
                 *     }
                 */
                "application/json": components["schemas"]["PatchMemberSettings"];
            };
        };
        responses: {
            /** @description The member's settings after the change */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberSettingsEnvelope"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServerBusyOrStorageUnavailable"];
        };
    };
    createCalendarLink: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The feed's URL, shown this once: the old link, if any, no longer works */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CalendarLinkEnvelope"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PlanRequired"];
            403: components["responses"]["CsrfFailedOrForbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["StorageUnavailable"];
        };
    };
    receiveIntakeMessage: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters (else 400 invalid_body), unique per request, kept 24 hours for the key or member that sent it. The first answer (except 401, 402, 403, 429 and 5xx) is stored with the request's effect; the same key with the same method, path and body (byte for byte) answers it again with Idempotent-Replayed: true and changes nothing; with another method, path or body: 422 idempotency_key_reused; while the first is running: 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The intake address's local part. An unknown token answers 404 not_found. */
                token: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example From: Jane Doe <jane@example.com>
                 *     Subject: Application
                 *     Message-ID: <1@example.com>
                 *
                 *     Please find my CV attached.
                 */
                "message/rfc822": components["schemas"]["EmailMessage"];
            };
        };
        responses: {
            /** @description The flow took this message in already (same Message-ID within 7 days): the first dossier's id, nothing new */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description `true` on an answer given again for a repeated Idempotency-Key; absent on the first answer (C16) */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IntakeReceiptEnvelope"];
                };
            };
            /** @description The message became a new dossier, stored with its CV */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description `true` on an answer given again for a repeated Idempotency-Key; absent on the first answer (C16) */
                    "Idempotent-Replayed"?: "true";
                    /** @description The created resource's URL, under /api/v1 (e.g. /api/v1/dossiers/{id}) */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IntakeReceiptEnvelope"];
                };
            };
            400: components["responses"]["InvalidBodyNoKey"];
            402: components["responses"]["PlanRequiredNoKey"];
            404: components["responses"]["NotFoundNoKey"];
            408: components["responses"]["RequestTimeoutNoKey"];
            409: components["responses"]["IdempotencyKeyInUseNoKey"];
            413: components["responses"]["PayloadTooLargeNoKey"];
            415: components["responses"]["UnsupportedMediaTypeNoKey"];
            422: components["responses"]["IdempotencyKeyReusedNoKey"];
            429: components["responses"]["RateLimitedNoKey"];
            500: components["responses"]["InternalNoKey"];
            503: components["responses"]["StorageUnavailableNoKey"];
        };
    };
    setUpPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "token": "q3V8Y1m0bKf2XcJ5dN7rT9wZ4hL6pA8sE1uG3iO5kM0",
                 *       "password": "correct horse battery staple"
                 *     }
                 */
                "application/json": components["schemas"]["SetupPassword"];
            };
        };
        responses: {
            /** @description You are signed in: Set-Cookie carries dossier_session (HttpOnly; SameSite=Lax; Path=/; Secure over HTTPS); the body the member and the CSRF token */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionEnvelope"];
                };
            };
            400: components["responses"]["InvalidBodyOrInvalidSetupLinkNoKey"];
            408: components["responses"]["RequestTimeoutNoKey"];
            409: components["responses"]["DuplicateMemberNoKey"];
            413: components["responses"]["PayloadTooLargeNoKey"];
            500: components["responses"]["InternalNoKey"];
            503: components["responses"]["StorageUnavailableOrServerBusyNoKey"];
        };
    };
    onDossierCreated: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex>`: HMAC-SHA256 keyed with the UTF-8 bytes of the whole secret (`whsec_...`) over `<t>.<raw body>`. During a rotation's 24 h a second `v1=` for the old secret follows. Compare in constant time and refuse a `t` older than 300 s. */
                "X-Service-Signature": string;
                /** @description The body's `id` */
                "X-Service-Event-Id": string;
                /** @description The body's `type` */
                "X-Service-Event-Type": string;
                /** @description Always this value */
                "User-Agent": "Dossier-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DossierCreatedEvent"];
            };
        };
        responses: {
            /** @description Gone: the endpoint is disabled and nothing more is sent until it is set again */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: any 2xx within 10 s (the body is ignored) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onDossierUpdated: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex>`: HMAC-SHA256 keyed with the UTF-8 bytes of the whole secret (`whsec_...`) over `<t>.<raw body>`. During a rotation's 24 h a second `v1=` for the old secret follows. Compare in constant time and refuse a `t` older than 300 s. */
                "X-Service-Signature": string;
                /** @description The body's `id` */
                "X-Service-Event-Id": string;
                /** @description The body's `type` */
                "X-Service-Event-Type": string;
                /** @description Always this value */
                "User-Agent": "Dossier-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DossierUpdatedEvent"];
            };
        };
        responses: {
            /** @description Gone: the endpoint is disabled and nothing more is sent until it is set again */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: any 2xx within 10 s (the body is ignored) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onDossierStageChanged: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex>`: HMAC-SHA256 keyed with the UTF-8 bytes of the whole secret (`whsec_...`) over `<t>.<raw body>`. During a rotation's 24 h a second `v1=` for the old secret follows. Compare in constant time and refuse a `t` older than 300 s. */
                "X-Service-Signature": string;
                /** @description The body's `id` */
                "X-Service-Event-Id": string;
                /** @description The body's `type` */
                "X-Service-Event-Type": string;
                /** @description Always this value */
                "User-Agent": "Dossier-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DossierStageChangedEvent"];
            };
        };
        responses: {
            /** @description Gone: the endpoint is disabled and nothing more is sent until it is set again */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: any 2xx within 10 s (the body is ignored) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onDossierDeleted: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex>`: HMAC-SHA256 keyed with the UTF-8 bytes of the whole secret (`whsec_...`) over `<t>.<raw body>`. During a rotation's 24 h a second `v1=` for the old secret follows. Compare in constant time and refuse a `t` older than 300 s. */
                "X-Service-Signature": string;
                /** @description The body's `id` */
                "X-Service-Event-Id": string;
                /** @description The body's `type` */
                "X-Service-Event-Type": string;
                /** @description Always this value */
                "User-Agent": "Dossier-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DossierDeletedEvent"];
            };
        };
        responses: {
            /** @description Gone: the endpoint is disabled and nothing more is sent until it is set again */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: any 2xx within 10 s (the body is ignored) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onNoteCreated: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex>`: HMAC-SHA256 keyed with the UTF-8 bytes of the whole secret (`whsec_...`) over `<t>.<raw body>`. During a rotation's 24 h a second `v1=` for the old secret follows. Compare in constant time and refuse a `t` older than 300 s. */
                "X-Service-Signature": string;
                /** @description The body's `id` */
                "X-Service-Event-Id": string;
                /** @description The body's `type` */
                "X-Service-Event-Type": string;
                /** @description Always this value */
                "User-Agent": "Dossier-Webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NoteCreatedEvent"];
            };
        };
        responses: {
            /** @description Gone: the endpoint is disabled and nothing more is sent until it is set again */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: any 2xx within 10 s (the body is ignored) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
