// A test that runs petmock in process: the one import.
import StubServerKit
