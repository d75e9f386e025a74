/// A move as a caller asked for it: by index paths, or by primary key and destination.
enum MoveTarget: Sendable {
    case paths(from: RowPath, to: RowPath)
    case key(Value, MoveDestination)
}
