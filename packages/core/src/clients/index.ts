export { createCredentials, authenticateClient, type Client, type Credentials } from './credentials.js';
