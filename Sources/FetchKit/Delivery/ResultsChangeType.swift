/// What happened to a section or an object in a batch.
public enum ResultsChangeType: String, Sendable, Hashable, Codable {
    case insert, delete, move, update
}
