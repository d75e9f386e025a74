import Foundation

/// A dedicated thread that opens one connection, runs the jobs it takes from a ``JobQueue``
/// in order, and closes the connection when the queue shuts down.
///
/// Every blocking call on the connection (sqlite3, libpq) happens on this thread, never on the cooperative
/// pool.
public enum ConnectionThread {
    /// Starts a thread named `name`; returns once its connection is open.
    ///
    /// - Parameters:
    ///   - open: opens the connection, on the new thread.
    ///   - onExit: called on the thread after the connection is closed (or failed to open).
    /// - Throws: the error `open` threw; the thread has then already exited.
    public static func start<Connection: DriverConnection>(
        name: String, queue: JobQueue<Connection>, open: @escaping @Sendable () throws -> Connection,
        onExit: @escaping @Sendable () -> Void
    ) async throws {
        try await withCheckedThrowingContinuation { (started: CheckedContinuation<Void, any Error>) in
            let thread = Thread {
                // Named from the thread itself (for debuggers); Linux keeps 15 bytes of it.
                Thread.current.name = name
                let connection: Connection
                do {
                    connection = try open()
                } catch {
                    onExit()
                    started.resume(throwing: error)
                    return
                }
                started.resume()
                while let job = queue.next() {
                    job(connection)
                }
                connection.close()
                onExit()
            }
            thread.start()
        }
    }
}
