/// Where ``ResultsController/moveObject(withKey:to:)`` puts a row, named by identity rather than by index.
///
/// A remote client (a browser on the other end of a WebSocket) describes a drop by the rows it sees around
/// it; the controller resolves the description against its results when it runs the move, so a change that
/// another writer made in between cannot make the move land on the wrong row.
public enum MoveDestination: Sendable, Hashable {
    /// Just before the row whose primary key is the value, in that row's section.
    case before(Value)
    /// After the last row of the section with this name.
    case endOfSection(String)
}
