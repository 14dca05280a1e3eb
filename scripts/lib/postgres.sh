# PostgreSQL for the tests: start Debian's cluster on 127.0.0.1 (installing the package when
# missing), make a role and an empty database, and export STATLINE_TEST_POSTGRES. Needs root
# (or sudo), as CI has. Source it after setup.sh; `statline_stop_postgres` stops what it started.

STATLINE_PG_STARTED=""

statline_start_postgres() {
  statline_ensure_packages postgresql
  local sudo=()
  [[ $(id -u) -eq 0 ]] || sudo=(sudo)
  local cluster
  cluster=$(pg_lsclusters --no-header 2>/dev/null | head -1 | awk '{print $1 " " $2}')
  if [[ -z $cluster ]]; then
    local version
    version=$(ls /usr/lib/postgresql | sort -V | tail -1)
    "${sudo[@]}" pg_createcluster "$version" main >&2
    cluster="$version main"
  fi
  # The suites run side by side, each store with a pool of up to 8 connections: the default
  # 100 connections ran out ("too many clients already") in a full run. A running cluster with
  # fewer is restarted with the setting.
  local connections=400
  # shellcheck disable=SC2086
  if [[ $(pg_conftool $cluster show max_connections 2>/dev/null | awk '{print $3}') != "$connections" ]]; then
    "${sudo[@]}" pg_conftool $cluster set max_connections $connections >&2
    if pg_lsclusters --no-header | grep -q "^${cluster% *} *${cluster#* } .* online"; then
      "${sudo[@]}" pg_ctlcluster $cluster restart
    fi
  fi
  # shellcheck disable=SC2086
  if ! pg_lsclusters --no-header | grep -q "^${cluster% *} *${cluster#* } .* online"; then
    "${sudo[@]}" pg_ctlcluster $cluster start
    STATLINE_PG_STARTED=$cluster
  fi
  pg_isready -h 127.0.0.1 -t 30 >&2
  local db=statline_test
  "${sudo[@]}" su postgres -c "psql -q -v ON_ERROR_STOP=1" >&2 <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'statline') THEN
    CREATE ROLE statline LOGIN PASSWORD 'statline';
  END IF;
END \$\$;
DROP DATABASE IF EXISTS $db;
CREATE DATABASE $db OWNER statline;
SQL
  export STATLINE_TEST_POSTGRES="postgres://statline:statline@127.0.0.1:5432/$db?sslmode=disable"
  echo "PostgreSQL ($cluster) is up: STATLINE_TEST_POSTGRES=postgres://statline@127.0.0.1:5432/$db" >&2
}

statline_stop_postgres() {
  [[ -n $STATLINE_PG_STARTED ]] || return 0
  local sudo=()
  [[ $(id -u) -eq 0 ]] || sudo=(sudo)
  # shellcheck disable=SC2086
  "${sudo[@]}" pg_ctlcluster $STATLINE_PG_STARTED stop || true
  STATLINE_PG_STARTED=""
}
