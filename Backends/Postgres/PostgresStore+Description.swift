extension PostgresStore: CustomStringConvertible {
    /// The server (its password redacted) and the change feed the store reads, for logs and diagnostics:
    /// `PostgresStore(postgresql://app@db/tasks, change feed: logical, publication fetchkit_public_5c1e…, slot
    /// fetchkit_4242_9f3a_1)`.
    public var description: String {
        var feed: String
        switch changeFeedKind {
        case .logical?:
            feed = "logical"
            if let logicalFeed {
                feed += ", publication \(logicalFeed.settings.publication)"
                feed += logicalFeed.slotName.map { ", slot \($0)" } ?? ""
            }
        case .triggers?: feed = "triggers on channel \(options.channel)"
        case .auto?, nil: feed = "none"
        }
        return "PostgresStore(\(url.redacted), change feed: \(feed))"
    }
}
