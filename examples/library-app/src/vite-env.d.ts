/// <reference types="vite/client" />
/// <reference types="@ninefold/react/client" />
