import FetchKit
import Logging

extension PostgresStore {
    /// What a store does with the schema's tables when it opens.
    public typealias SchemaPolicy = FetchKit.SchemaPolicy

    /// How a store opens and runs its connections.
    ///
    /// ```swift
    /// var options = PostgresStore.Options()
    /// options.readerCount = 8
    /// let store = try await PostgresStore.open(url: "postgresql://app@db/tasks", schema: schema, options: options)
    /// ```
    public struct Options: Sendable {
        /// How many connections (each on its own thread) serve fetches; the writer is one more.
        public var readerCount: Int
        /// Where the store logs (opening, schema creation, closing at info; rollbacks at debug).
        public var logger: Logger
        /// Whether missing tables are created.
        public var schemaPolicy: SchemaPolicy

        /// Creates options; the defaults are 4 readers, a silent logger and ``SchemaPolicy/createMissing``.
        public init(readerCount: Int = 4, logger: Logger = Options.silentLogger, schemaPolicy: SchemaPolicy = .createMissing) {
            self.readerCount = readerCount
            self.logger = logger
            self.schemaPolicy = schemaPolicy
        }

        /// The default logger: label `fetchkit.postgres`, discarding everything.
        public static var silentLogger: Logger {
            Logger(label: "fetchkit.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        }
    }
}
