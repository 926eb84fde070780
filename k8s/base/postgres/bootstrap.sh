#!/bin/sh
# Meeting Memory's roles and schemas in one database: one login role per service owning one schema
# (the name its code uses), the extensions made once, nothing else. Runs as an administrator with
# CREATEROLE who may create schemas in the database (its owner or CREATE on it), not a superuser:
# RDS's master user, Cloud SQL's postgres user, Azure's admin. Safe to run again (passwords are
# set again; nothing is dropped). Each service's migration step then runs as its own role.
#   libpq's PGHOST PGPORT PGDATABASE PGUSER PGPASSWORD (PGSSLMODE...): the administrator
#   ROLE_PREFIX   before each role's name (default mm_: mm_gateway, mm_account, ...)
#   <SERVICE>_DB_PASSWORD   each service's password (GATEWAY_DB_PASSWORD, ...)
#   <SERVICE>_DB_APP_PASSWORD   optional: a second login role, mm_<service>_app, that may only read and
#     write the schema's rows (no DDL, owns nothing) for the running service (its DATABASE_URL), while
#     the owner role runs the migration step (MIGRATION_DATABASE_URL). Tables made later by the owner's
#     migrations are the runtime role's too (default privileges). Safe to add to an install that has
#     only the owners: the tables already there are granted.
set -eu
# Notices ("already exists, skipping") on a second run are not news.
export PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning"
prefix="${ROLE_PREFIX-mm_}"
# service:schema, as the services' code names its schema (the gateway keeps the access schema; the app,
# services/web, keeps its share links in web).
services="gateway:access account:account recordings:recordings pipeline:pipeline series:series ask:ask events:events web:web"

for pair in $services; do
  pw_var="$(echo "${pair%%:*}" | tr a-z A-Z)_DB_PASSWORD"
  [ -n "$(printenv "$pw_var" || true)" ] || { echo "bootstrap: $pw_var is not set" >&2; exit 1; }
done

# pg_trgm and btree_gin are trusted extensions: the database's owner (or CREATE on it) makes them,
# once, in a schema of their own every service may use (recordings' search index names it).
psql -v ON_ERROR_STOP=1 -q <<'SQL'
CREATE SCHEMA IF NOT EXISTS extensions;
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA extensions;
CREATE EXTENSION IF NOT EXISTS btree_gin WITH SCHEMA extensions;
SELECT format('REVOKE ALL ON DATABASE %I FROM PUBLIC', current_database()) \gexec
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
SQL

for pair in $services; do
  svc="${pair%%:*}"
  pw="$(printenv "$(echo "$svc" | tr a-z A-Z)_DB_PASSWORD")"
  psql -v ON_ERROR_STOP=1 -q -v role="$prefix$svc" -v schema="${pair#*:}" -v pw="$pw" <<'SQL'
SELECT format('CREATE ROLE %I LOGIN', :'role') WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'role') \gexec
-- No SUPERUSER/CREATEDB/CREATEROLE words: a role made by a CREATEROLE administrator has none, and
-- only a superuser may name them.
ALTER ROLE :"role" WITH LOGIN PASSWORD :'pw';
-- Membership lets the administrator make the schema owned by the role (PostgreSQL 16: the ADMIN
-- OPTION its creator holds does not allow SET ROLE).
GRANT :"role" TO CURRENT_USER;
CREATE SCHEMA IF NOT EXISTS :"schema" AUTHORIZATION :"role";
ALTER ROLE :"role" SET search_path = :"schema";
SELECT format('GRANT CONNECT ON DATABASE %I TO %I', current_database(), :'role') \gexec
GRANT USAGE ON SCHEMA extensions TO :"role";
SQL
  app_pw="$(printenv "$(echo "$svc" | tr a-z A-Z)_DB_APP_PASSWORD" || true)"
  [ -n "$app_pw" ] || continue
  psql -v ON_ERROR_STOP=1 -q -v owner="$prefix$svc" -v role="$prefix${svc}_app" -v schema="${pair#*:}" -v pw="$app_pw" <<'SQL'
SELECT format('CREATE ROLE %I LOGIN', :'role') WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'role') \gexec
ALTER ROLE :"role" WITH LOGIN PASSWORD :'pw';
ALTER ROLE :"role" SET search_path = :"schema";
SELECT format('GRANT CONNECT ON DATABASE %I TO %I', current_database(), :'role') \gexec
GRANT USAGE ON SCHEMA :"schema", extensions TO :"role";
-- Rows only: no CREATE on the schema, no ownership, so no DROP, ALTER or TRUNCATE.
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA :"schema" TO :"role";
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA :"schema" TO :"role";
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA :"schema" GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO :"role";
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA :"schema" GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO :"role";
SQL
  app_roles="${app_roles:+$app_roles,}$prefix${svc}_app"
done
# An administrator that does not own the database (CREATE on it only) makes the roles and schemas,
# but its REVOKEs and GRANT CONNECT above only warn: every role of the server could still connect
# (and, before PostgreSQL 15, create in public), or, where the owner had already revoked PUBLIC's
# CONNECT, the services' roles cannot connect at all. Say so, with what the owner must run.
roles="${app_roles:-}"
for pair in $services; do roles="${roles:+$roles,}$prefix${pair%%:*}"; done
undone="$(psql -X -A -t -q <<'SQL'
SELECT concat_ws(' ',
  CASE WHEN has_database_privilege('public', current_database(), 'CONNECT')
    THEN format('REVOKE ALL ON DATABASE %I FROM PUBLIC;', current_database()) END,
  CASE WHEN to_regnamespace('public') IS NOT NULL AND has_schema_privilege('public', 'public', 'CREATE')
    THEN 'REVOKE CREATE ON SCHEMA public FROM PUBLIC;' END)
SQL
)"
# The roles that cannot connect once PUBLIC's CONNECT is gone: every one when PUBLIC still has it
# (they may hold it only through PUBLIC), else those without a grant of their own.
ungranted="$(psql -X -A -t -q -v roles="$roles" <<'SQL'
SELECT string_agg(quote_ident(r), ', ' ORDER BY o)
FROM unnest(string_to_array(:'roles', ',')) WITH ORDINALITY AS t(r, o)
WHERE has_database_privilege('public', current_database(), 'CONNECT')
   OR NOT has_database_privilege(r, current_database(), 'CONNECT')
SQL
)"
if [ -n "$undone" ] || [ -n "$ungranted" ]; then
  db="$(psql -X -A -t -q -c 'SELECT quote_ident(current_database())')"
  if [ -n "$undone" ]; then
    why="PUBLIC keeps its rights there"
  else
    why="the roles $ungranted cannot connect to it"
  fi
  grant="${ungranted:+GRANT CONNECT ON DATABASE $db TO $ungranted;}"
  echo "bootstrap: warning: the administrator does not own database $db, so $why; as its owner run: $undone${undone:+${grant:+ }}$grant" >&2
fi
echo "bootstrap: roles ${prefix}{gateway,account,recordings,pipeline,series,ask,events,web} and their schemas are ready${app_roles:+ (runtime roles: $app_roles)}"
