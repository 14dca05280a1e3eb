import StatlineApp

/// The loopback server lives in `StatlineApp` (the demo serves its game day with it); tests
/// reach it through this module as before.
public typealias LoopbackServer = StatlineApp.LoopbackServer
