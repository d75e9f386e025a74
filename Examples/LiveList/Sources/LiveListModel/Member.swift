import FetchKitMacros

/// A person who signs in: a member of one team, known to the server by a secret token (the sign-in cookie).
@Entity(table: "member")
public struct Member: Equatable {
    @PrimaryKey public var id: Int64?
    @Attribute(indexed: true) public var name: String
    public var team: String
    @Attribute(indexed: true) public var token: String

    public init(id: Int64? = nil, name: String, team: String, token: String) {
        (self.id, self.name, self.team, self.token) = (id, name, team, token)
    }
}
