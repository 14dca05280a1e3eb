/// Statline's version, as `statline --version` prints it. 0.x: the store's schema migrates on
/// upgrade and the read API is `/v1`; the minor number counts the landed development stops.
public enum StatlineVersion {
  public static let current = "0.21.0"
}
