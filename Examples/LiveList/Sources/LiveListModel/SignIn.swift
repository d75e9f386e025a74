import FetchKit
import FetchKitSession
import Foundation

/// Who a request comes from, by its sign-in cookie: a stand-in for an app's own authentication.
extension Board {
    /// The `Set-Cookie` value that signs member `name` in, or `nil` when there is no such member.
    public static func signIn(_ name: String, store: any PersistentStore) async throws -> String? {
        let members = try await store.fetch(FetchRequest<Member>(predicate: .key("name") == name))
        return members.first.map { "member=\($0.token); Path=/; HttpOnly; SameSite=Strict" }
    }

    /// The scope of the member whose token the `Cookie` header carries: their team's cards. Whatever a page puts
    /// in its URL or its filter, the session AND-s this around it.
    ///
    /// - Throws: ``SessionError`` `forbidden` when no member signed in.
    public static func scope(cookie: String?, store: any PersistentStore) async throws -> FetchPredicate {
        let token = cookie?.split(separator: ";").lazy.map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("member=") }?.dropFirst("member=".count)
        let members = try await store.fetch(FetchRequest<Member>(predicate: .key("token") == String(token ?? "")))
        guard let member = members.first, token?.isEmpty == false else {
            throw SessionError(.forbidden, "sign in first")
        }
        return .key("team") == member.team
    }
}
