/// Migration 10: a `Retry-After` pause is kept on its own (`host_pauses`: the host, until when,
/// since when) beside the slot it holds back (`host_slots.next_start`), so `statline status`,
/// `/v1/status` and `/metrics` can show a paused host with its end, and `statline hosts resume`
/// can lift it. A pause written before the cap (a ten-year `Retry-After` kept its host silent
/// until 2036) is cut to 30 s from the migration, the cap every pause has since.
extension PostgresMigrations {
  static let hostPauses = """
    CREATE TABLE host_pauses (
      host text PRIMARY KEY, until double precision NOT NULL, since double precision NOT NULL);
    UPDATE host_slots SET next_start = extract(epoch FROM now()) + 30
      WHERE next_start > extract(epoch FROM now()) + 30
    """
}
