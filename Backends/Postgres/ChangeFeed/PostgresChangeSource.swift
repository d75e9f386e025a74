/// What the store needs of its change source, whichever feed it is: the trigger feed's listener
/// (``PostgresListener``) or the logical-replication feed (``LogicalFeed``).
protocol PostgresChangeSource: AnyObject, Sendable {
    /// What the source is doing now.
    var state: PostgresListener.State { get }
    /// The source's state now, then every change of it, until it stops.
    func stateUpdates() -> AsyncStream<PostgresListener.State>
    /// Writes of the store waiting until their transaction is published.
    var completions: TransactionCompletions { get }
    /// Checks at once that the server answers (a write's change is overdue); reconnects when it does not.
    func checkConnection()
    /// Stops the source and waits until its thread has closed its connection.
    func stop() async
    /// The server process of the source's connection, while connected.
    var backendPID: Int32? { get }
}

extension PostgresListener: PostgresChangeSource {}
extension LogicalFeed: PostgresChangeSource {}
