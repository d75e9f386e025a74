extension ListenerStateMachine {
    /// Input read at `now`: each notification joins its transaction's change. A notification of another
    /// transaction publishes the pending one; a store write's end marker publishes its transaction at once and
    /// completes the write; a payload that cannot be read becomes a resync, never a crash.
    mutating func received(_ payloads: [String], at now: ContinuousClock.Instant) -> [Action] {
        guard isConnected else { return [] }
        return supervise(.activity, at: now) + payloads.flatMap { receive($0, at: now) }
    }

    private mutating func receive(_ payload: String, at now: ContinuousClock.Instant) -> [Action] {
        // A probe (the listener's own, or another's) is no change.
        if let probed = probeArrived(payload, at: now) { return probed }
        guard var notification = PostgresNotification(payload: payload) else {
            return flush() + [.reportUnreadable(payload: payload), .publishResync]
        }
        if let schema = notification.schema, schema != schemaName { return [] }
        if notification.referenceColumn == nil, paddedKeyTables.contains(notification.table) {
            notification.removeKeyPadding()
        }
        let previous = group.transactionID != notification.transactionID ? flush() : []
        if notification.isEnd { return previous + flush() + [.completeTransaction(notification.transactionID)] }
        if let name = notification.referenceColumn {
            // A column the schema does not follow (a DBA's script follows every foreign key) is skipped.
            guard let column = references.column(name, of: notification.table) else { return previous }
            group.addReferences(
                notification.keys.map { column.padded ? $0.map(\.withoutCharPadding) : $0 },
                attribute: column.attribute, table: notification.table, transactionID: notification.transactionID)
        } else {
            group.add(notification)
        }
        return previous
    }

    /// The burst of the pending transaction's notifications is over (``PostgresStore/ListenerOptions/burstQuietPeriod``
    /// without input). A store write's transaction ends with its marker: wait for it. Another client's (psql,
    /// another service) sends none: its notifications arrive in one burst at commit, and the burst is over.
    /// (Were a burst to pause longer, its change would arrive in parts — each still correct, since the
    /// transaction has committed whole.)
    mutating func burstEnded(markerAwaited: Bool, at now: ContinuousClock.Instant) -> [Action] {
        supervise(.activity, at: now) + (markerAwaited ? [] : flush())
    }

    /// Publishes the pending transaction's change, if any.
    mutating func flush() -> [Action] {
        group.take().map { [.publish($0)] } ?? []
    }
}
