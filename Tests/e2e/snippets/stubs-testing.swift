// A test target's file: Swift Testing and the one import.
import Testing
import URLSessionStubs
