/// One session as an archive keeps it: its ID (the first part of its tokens), the identity of the request its
/// lists answer, how long ago it last sent or resumed, and its kept lists, oldest first.
struct ArchivedSession: Sendable {
    /// A kept list and the sequence number of the message that sent it.
    struct Sent: Sendable {
        var sequence: UInt64
        var list: ArchivedList
    }

    var id: String
    var request: RequestIdentity
    /// How long before the archive was written the session last sent or resumed.
    var age: Duration
    var sent: [Sent]
}
