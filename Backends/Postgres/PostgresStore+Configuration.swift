import FetchKitBackendKit

extension PostgresStore.Options {
    /// Options from a deployment's configuration: its reader count and logger, and the PostgreSQL keys of its
    /// reader, each left at its default when not set.
    ///
    /// - `fetchkit.postgres.keepaliveIdleSeconds` (`FETCHKIT_POSTGRES_KEEPALIVE_IDLE_SECONDS`): TCP keepalive idle
    ///   time, default 5.
    /// - `fetchkit.postgres.keepaliveIntervalSeconds` (`FETCHKIT_POSTGRES_KEEPALIVE_INTERVAL_SECONDS`): between
    ///   keepalive probes, default 2.
    /// - `fetchkit.postgres.keepaliveCount` (`FETCHKIT_POSTGRES_KEEPALIVE_COUNT`): unanswered probes before a
    ///   connection is broken, default 3.
    /// - `fetchkit.postgres.reconnectMinMilliseconds` (`FETCHKIT_POSTGRES_RECONNECT_MIN_MILLISECONDS`): first
    ///   reconnection wait of the listener, default 50.
    /// - `fetchkit.postgres.reconnectMaxMilliseconds` (`FETCHKIT_POSTGRES_RECONNECT_MAX_MILLISECONDS`): longest
    ///   reconnection wait, default 5000.
    /// - `fetchkit.postgres.listenerURL` (`FETCHKIT_POSTGRES_LISTENER_URL`): a direct connection for the change
    ///   listener when the store's URL goes through a transaction-mode pooler (a secret), default the store's URL.
    /// - `fetchkit.postgres.pingTimeoutMilliseconds` (`FETCHKIT_POSTGRES_PING_TIMEOUT_MILLISECONDS`): how long the
    ///   listener waits for a ping's answer, default 2000.
    /// - `fetchkit.postgres.publishTimeoutMilliseconds` (`FETCHKIT_POSTGRES_PUBLISH_TIMEOUT_MILLISECONDS`): how long a
    ///   write waits for its change before the listener checks its connection, default 2000.
    /// - `fetchkit.postgres.notificationRowLimit` (`FETCHKIT_POSTGRES_NOTIFICATION_ROW_LIMIT`): above it a statement
    ///   notifies a table-level hint, default 10000.
    /// - `fetchkit.postgres.changeCapture` (`FETCHKIT_POSTGRES_CHANGE_CAPTURE`): `false` opens the store without
    ///   change capture (no triggers installed, no feed: fetches and writes only)
    /// - `fetchkit.postgres.changeFeed` (`FETCHKIT_POSTGRES_CHANGE_FEED`): `triggers`, `logical` or `auto`
    ///   (see ``PostgresStore/ChangeFeedKind``), default `triggers`.
    /// - `fetchkit.postgres.replicationSlot` (`FETCHKIT_POSTGRES_REPLICATION_SLOT`): the logical feed's persistent
    ///   slot, default none (a temporary slot per connection).
    /// - `fetchkit.postgres.publication` (`FETCHKIT_POSTGRES_PUBLICATION`): the logical feed's publication, default
    ///   one named after the schema's namespace and tables.
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` naming a key whose value is out of range;
    ///   ``FetchKitError/Code/invalidURL`` for a malformed listener URL (its password redacted).
    public init(configuration: StoreConfiguration) throws {
        self.init()
        logger = configuration.logger
        if let readers = configuration.readerCount { readerCount = readers }
        func positive(_ name: String) throws -> Int? { try configuration.positiveInteger("fetchkit.postgres." + name) }
        if let limit = try positive("notificationRowLimit") { notificationRowLimit = limit }
        if let idle = try positive("keepaliveIdleSeconds") { listener.keepaliveIdle = .seconds(idle) }
        if let interval = try positive("keepaliveIntervalSeconds") { listener.keepaliveInterval = .seconds(interval) }
        if let count = try positive("keepaliveCount") { listener.keepaliveCount = count }
        if let timeout = try positive("pingTimeoutMilliseconds") { listener.pingTimeout = .milliseconds(timeout) }
        if let timeout = try positive("publishTimeoutMilliseconds") { listener.publishTimeout = .milliseconds(timeout) }
        let minimum = try positive("reconnectMinMilliseconds")
        let maximum = try positive("reconnectMaxMilliseconds")
        if minimum != nil || maximum != nil {
            let low = minimum ?? 50
            let high = maximum ?? max(low, 5_000)
            guard low <= high else {
                throw FetchKitError.invalidValue(
                    "fetchkit.postgres.reconnectMinMilliseconds (\(low)) exceeds reconnectMaxMilliseconds (\(high))")
            }
            listener.reconnectBackoff = .milliseconds(low)...(.milliseconds(high))
        }
        if let capture = configuration.string("fetchkit.postgres.changeCapture") {
            switch capture.lowercased() {
            case "true", "yes", "1": changeCapture = true
            case "false", "no", "0": changeCapture = false
            default:
                throw FetchKitError.invalidValue("fetchkit.postgres.changeCapture '\(capture)' is not true or false")
            }
        }
        if let feed = configuration.string("fetchkit.postgres.changeFeed") {
            guard let kind = PostgresStore.ChangeFeedKind(rawValue: feed.lowercased()) else {
                throw FetchKitError.invalidValue(
                    "fetchkit.postgres.changeFeed '\(feed)' is not one of triggers, logical, auto")
            }
            changeFeed = kind
        }
        if let slot = configuration.string("fetchkit.postgres.replicationSlot"), !slot.isEmpty {
            do {
                try LogicalReplicationCommands.validateSlotName(slot)
            } catch let error as FetchKitError {
                throw FetchKitError.invalidValue("fetchkit.postgres.replicationSlot: \(error.message)")
            }
            replicationSlot = slot
        }
        if let name = configuration.string("fetchkit.postgres.publication"), !name.isEmpty {
            publication = name
        }
        if let url = configuration.secret("fetchkit.postgres.listenerURL") {
            do {
                listener.url = try PostgresURL(url)
            } catch let error as FetchKitError where error.code == .invalidURL {
                let message = error.message
                throw FetchKitError.invalidURL("fetchkit.postgres.listenerURL: \(message)")
            }
        }
    }
}
